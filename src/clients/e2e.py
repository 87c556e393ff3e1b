#!/usr/bin/env python3
"""e2e.py: client-side end-to-end encryption for drop and mail bodies (Python 3 standard library only).

Construction cx-e2e-v1, byte-identical to e2e.mjs (see its header; checked by /e2e-vectors.json):
  drop: K (32 bytes, in the URL fragment #k=<base64url>); (k_enc, k_mac) = HKDF-SHA256(K, "", "cx-e2e-v1 drop", 64)
  box:  ephemeral X25519 (e, E) to recipient R; (k_enc, k_mac) = HKDF-SHA256(X25519(e, R), E||R, "cx-e2e-v1 box", 64)
  seal: N (16 random); keystream block i = HMAC-SHA256(k_enc, N || uint32be(i)); C = P xor keystream;
        T = HMAC-SHA256(k_mac, "cx-e2e-v1" || N || C); text "cxe1d." + b64url(N||C||T) or "cxe1b." + b64url(E||N||C||T)
X25519 is the RFC 7748 ladder in pure Python.
Usage: python3 e2e.py keygen | box <pub hex> | unbox <priv hex> | drop-seal | drop-open <k>   (stdin -> stdout)
"""
import base64
import hashlib
import hmac
import os
import struct
import sys

_P = 2**255 - 19
_A24 = 121665


def _clamp(k):
    k = bytearray(k)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    return int.from_bytes(bytes(k), "little")


def x25519(k, u):
    """RFC 7748 section 5: scalar k (32 bytes) times u-coordinate u (32 bytes)."""
    k = _clamp(k)
    u = int.from_bytes(u, "little") & ((1 << 255) - 1)
    x1, x2, z2, x3, z3, swap = u, 1, 0, u, 1, 0
    for t in reversed(range(255)):
        kt = (k >> t) & 1
        swap ^= kt
        if swap:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = kt
        A = (x2 + z2) % _P
        AA = A * A % _P
        B = (x2 - z2) % _P
        BB = B * B % _P
        E = (AA - BB) % _P
        C = (x3 + z3) % _P
        D = (x3 - z3) % _P
        DA = D * A % _P
        CB = C * B % _P
        x3 = (DA + CB) ** 2 % _P
        z3 = x1 * (DA - CB) ** 2 % _P
        x2 = AA * BB % _P
        z2 = E * (AA + _A24 * E) % _P
    if swap:
        x2, x3, z2, z3 = x3, x2, z3, z2
    return (x2 * pow(z2, _P - 2, _P) % _P).to_bytes(32, "little")


def x25519_public(priv):
    return x25519(priv, (9).to_bytes(32, "little"))


def _hkdf(ikm, salt, info, length=64):
    prk = hmac.new(salt or b"\0" * 32, ikm, hashlib.sha256).digest()
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        out += t
        i += 1
    k = out[:length]
    return k[:32], k[32:]


def _stream(k_enc, nonce, data):
    out = bytearray()
    for i in range(0, len(data), 32):
        block = hmac.new(k_enc, nonce + struct.pack(">I", i // 32), hashlib.sha256).digest()
        out += bytes(a ^ b for a, b in zip(data[i:i + 32], block))
    return bytes(out)


def _mac(k_mac, nonce, ct):
    return hmac.new(k_mac, b"cx-e2e-v1" + nonce + ct, hashlib.sha256).digest()


def _seal(keys, plain, nonce):
    ct = _stream(keys[0], nonce, plain)
    return nonce + ct + _mac(keys[1], nonce, ct)


def _open(keys, sealed):
    if len(sealed) < 48:
        raise ValueError("cx-e2e: too short")
    nonce, ct, tag = sealed[:16], sealed[16:-32], sealed[-32:]
    if not hmac.compare_digest(tag, _mac(keys[1], nonce, ct)):
        raise ValueError("cx-e2e: authentication failed")
    return _stream(keys[0], nonce, ct)


def _b64e(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def _b64d(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def drop_seal(K, plain, nonce=None):
    return "cxe1d." + _b64e(_seal(_hkdf(K, b"", b"cx-e2e-v1 drop"), plain.encode("utf-8"), nonce or os.urandom(16)))


def drop_open(K, text):
    if not text.startswith("cxe1d."):
        raise ValueError("cx-e2e: not a sealed drop")
    return _open(_hkdf(K, b"", b"cx-e2e-v1 drop"), _b64d(text.strip()[6:])).decode("utf-8")


def box(recipient, plain, eph=None, nonce=None):
    eph = eph or os.urandom(32)
    E = x25519_public(eph)
    keys = _hkdf(x25519(eph, recipient), E + recipient, b"cx-e2e-v1 box")
    return "cxe1b." + _b64e(E + _seal(keys, plain.encode("utf-8"), nonce or os.urandom(16)))


def unbox(priv, text):
    if not text.startswith("cxe1b."):
        raise ValueError("cx-e2e: not a sealed box")
    raw = _b64d(text.strip()[6:])
    E = raw[:32]
    keys = _hkdf(x25519(priv, E), E + x25519_public(priv), b"cx-e2e-v1 box")
    return _open(keys, raw[32:]).decode("utf-8")


def main(argv):
    cmd, arg = (argv + [None, None])[:2]
    try:
        if cmd == "keygen":
            priv = os.urandom(32)
            sys.stdout.write("priv=%s\npub=%s\n" % (priv.hex(), x25519_public(priv).hex()))
        elif cmd == "box" and arg:
            sys.stdout.write(box(bytes.fromhex(arg), sys.stdin.read()) + "\n")
        elif cmd == "unbox" and arg:
            sys.stdout.write(unbox(bytes.fromhex(arg), sys.stdin.read()))
        elif cmd == "drop-seal":
            K = os.urandom(32)
            sys.stdout.write("k=%s\n%s\n" % (_b64e(K), drop_seal(K, sys.stdin.read())))
        elif cmd == "drop-open" and arg:
            k = arg[1:] if arg.startswith("#") else arg
            sys.stdout.write(drop_open(_b64d(k[2:] if k.startswith("k=") else k), sys.stdin.read()))
        else:
            sys.stderr.write(__doc__.strip().splitlines()[-1] + "\n")
            sys.exit(1)
    except ValueError as e:
        sys.stderr.write("%s\n" % e)
        sys.exit(3)


if __name__ == "__main__":
    main(sys.argv[1:])
