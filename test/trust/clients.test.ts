// The clients (/cx.mjs: Node, no dependencies; /cx.py: Python 3 standard library) downloaded from the
// server and run against it:
// join (PoW with progress on stderr, token 0600), e, brief, search, note, drop put/get, verify of a
// downloaded file against the signed manifest (a one-byte change fails), verify-line.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { bothVerify } from './verify-helpers.js';

let s: TestServer;
const root = mkdtempSync(join(tmpdir(), 'cx-client-'));

beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
});
afterAll(async () => {
  await s?.stop();
  rmSync(root, { recursive: true, force: true });
});

const CLIENTS = [
  // Errors of different classes: a coarse match must not find the other client's entry.
  {
    file: 'cx.mjs',
    exe: process.execPath,
    type: /^text\/javascript/,
    mod: 'zzqclientmjs',
    err: "Traceback (most recent call last):\nModuleNotFoundError: No module named 'zzqclientmjs'\n",
  },
  {
    file: 'cx.py',
    exe: 'python3',
    type: /^text\/x-python/,
    mod: 'zzqclientpy',
    err: 'npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/zzqclientpy - Not found\n',
  },
  {
    file: 'cx.sh',
    exe: 'bash',
    type: /^text\/x-shellscript/,
    mod: 'zzqclientsh',
    err: 'error[E0432]: unresolved import `zzqclientsh`\n --> src/main.rs:1:5\n',
  },
];

for (const client of CLIENTS)
  describe(`${client.file} against the server`, () => {
    const dir = join(root, client.file);
    const cx = join(dir, client.file);
    const tokenFile = join(dir, 'cfg', 'token');

    /** Runs the client asynchronously (the server shares this process); resolves with code, stdout, stderr. */
    function run(args: string[], input?: string): Promise<{ code: number; out: string; err: string }> {
      return new Promise((ok) => {
        const child = execFile(
          client.exe,
          [cx, ...args],
          { env: { PATH: process.env.PATH, HOME: dir, CX_URL: s.url, CX_TOKEN_FILE: tokenFile } },
          (e, out, err) => ok({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
        );
        // A client that does not read its input may exit first: the pipe closing is not an error here.
        child.stdin!.on('error', () => undefined);
        child.stdin!.end(input ?? '');
      });
    }

    beforeAll(async () => {
      await promisify(execFile)('mkdir', ['-p', dir]);
      const res = await fetch(`${s.url}/${client.file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(client.type);
      writeFileSync(cx, Buffer.from(await res.arrayBuffer()));
    });

    it('the served file names the server and needs nothing beyond the runtime', () => {
      const src = readFileSync(cx, 'utf8');
      expect(src).toMatch(/(CX_URL|SERVED)[^\n]*"?'?http:\/\/commons\.test/);
      if (client.file === 'cx.mjs') expect([...src.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]).every((m) => m!.startsWith('node:'))).toBe(true);
      else if (client.file === 'cx.py')
        expect([...src.matchAll(/^import (\S+)$/gm)].map((m) => m[1])).toEqual([
          'base64',
          'hashlib',
          'json',
          'os',
          're',
          'sys',
          'time',
          'urllib.error',
          'urllib.parse',
          'urllib.request',
        ]);
      else expect(src).not.toMatch(/\b(jq|python3?|node|perl|xxd)\b/);
    });

    it('join, e, brief, search, note, drop put/get', async () => {
      const j = await run(['join', client.file === 'cx.py' ? 'pyclient' : 'jsclient']);
      expect(j.code, j.err).toBe(0);
      expect(j.out).toMatch(/^ok joined a[0-9a-z]+; token saved to /);
      expect(j.err).toMatch(/pow \d+ bits: solved after \d+ hashes/);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(tokenFile, 'utf8')).toMatch(/^cx_/);

      const err = client.err;
      const miss = await run(['e'], err);
      expect(miss.code, miss.err).toBe(1);
      expect(miss.out).toMatch(/^err notfound no fix yet for /);
      const token = readFileSync(tokenFile, 'utf8').trim();
      const add = await fetch(`${s.url}/k`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ error: err, fix: `install ${client.mod} from the right registry and pin it`, eco: client.file === 'cx.py' ? 'npm' : 'pypi' }),
      });
      expect(add.status).toBe(201);
      const e = await run(['e'], err);
      expect(e.code, e.err).toBe(0);
      expect(e.out).toContain(`install ${client.mod} from the right registry`);
      const b = await run(['brief', client.mod, 'import', 'error']);
      expect(b.code, b.err).toBe(0);
      expect(b.out.length).toBeGreaterThan(0);
      const sr = await run(['search', client.mod]);
      expect(sr.code, sr.err).toBe(0);
      expect(sr.out).toMatch(/^search hits=1\n/);
      const n = await run(['note', 'remember', 'the', 'client', 'test']);
      expect(n.code, n.err).toBe(0);
      expect(n.out).toMatch(/^ok /);
      const secret = `clientdrop_${client.mod}_` + 'x'.repeat(20);
      const p = await run(['drop', 'put', secret], 'hello from the client\n');
      expect(p.code, p.err).toBe(0);
      const g = await run(['drop', 'get', secret]);
      expect(g.code, g.err).toBe(0);
      expect(g.out).toContain('hello from the client');
      // Errors come back as the server's one line, exit code 2.
      const bad = await run(['drop', 'get', 'nosuchdrop_' + 'y'.repeat(20)]);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/^err notfound/);
    }, 60_000);

    it('manifest: signed manifest1; verify accepts the download and refuses one changed byte', async () => {
      const res = await fetch(`${s.url}/cx-manifest.json`);
      const body = Buffer.from(await res.arrayBuffer());
      const m = JSON.parse(body.toString()) as { type: string; files: Array<{ name: string; sha256: string }>; payload: string; kid: number; sig: string };
      const key = (await (await fetch(`${s.url}/.well-known/cx-key`)).json()) as { kid: number; pub: string };
      expect(m.kid).toBe(key.kid);
      expect(m.files.map((f) => f.name)).toEqual(['cx.mjs', 'cx.py', 'cx.sh', 'e2e-vectors.json', 'e2e.mjs', 'e2e.py', 'join.py']);
      expect(await bothVerify(key.pub, 'manifest1', m.payload, Buffer.from(m.sig, 'base64url'))).toEqual([true, true]);
      const sig = /sig=([A-Za-z0-9_-]{86})$/.exec(res.headers.get('x-cx-sig-server')!)![1]!;
      expect(await bothVerify(key.pub, 'resp1', body, Buffer.from(sig, 'base64url'))).toEqual([true, true]);

      const ok = await run(['verify', cx]);
      expect(ok.code, ok.err).toBe(0);
      expect(ok.out.startsWith(`ok ${client.file} sha256=`)).toBe(true);
      const copy = join(dir, 'tampered', client.file);
      const bytes = readFileSync(cx);
      bytes[bytes.length - 2] ^= 1;
      await promisify(execFile)('mkdir', ['-p', join(dir, 'tampered')]);
      writeFileSync(copy, bytes);
      const fail = await run(['verify', copy]);
      expect(fail.code).toBe(3);
      expect(fail.err.startsWith(`FAIL ${client.file} sha256=`)).toBe(true);
    });

    it('verify (and verify-line) checks a statement line with cx-key, and refuses it as another type or changed', async () => {
      const payload = "job=j1 out=ab repro=1/1 at=2026-11-24T00:00:00Z note='quoted' \\ %s $HOME";
      const { sig, kid } = s.core.keys.sign('att1', payload);
      const line = `att1 kid=${kid} sig=${sig.toString('base64url')} ${payload}`;
      const ok = await run(['verify', line]);
      expect(ok.code, ok.err).toBe(0);
      expect(ok.out).toBe(`ok att1 kid=${kid}\n`);
      const ok2 = await run(['verify-line'], line + '\n');
      expect(ok2.code, ok2.err).toBe(0);
      expect(ok2.out).toBe(`ok att1 kid=${kid}\n`);
      const asAnn = await run(['verify', line.replace(/^att1/, 'ann1')]);
      expect(asAnn.code).toBe(3);
      expect(asAnn.err).toBe(`FAIL ann1 kid=${kid}\n`);
      expect((await run(['verify', line.replace('repro=1/1', 'repro=2/2')])).code).toBe(3);
      expect((await run(['verify', 'not a statement'])).code).toBe(3);
    });
  });

describe('join.py against the server', () => {
  it('registers alone: PoW progress on stderr, token 0600', async () => {
    const dir = join(root, 'join.py');
    await promisify(execFile)('mkdir', ['-p', dir]);
    const res = await fetch(`${s.url}/join.py`);
    expect(res.status).toBe(200);
    writeFileSync(join(dir, 'join.py'), Buffer.from(await res.arrayBuffer()));
    const tokenFile = join(dir, 'token');
    const { stdout, stderr } = await promisify(execFile)('python3', [join(dir, 'join.py'), 'joiner'], {
      env: { PATH: process.env.PATH, HOME: dir, CX_URL: s.url, CX_TOKEN_FILE: tokenFile },
    });
    expect(stdout).toMatch(/^ok joined a[0-9a-z]+; token saved to /);
    expect(stderr).toMatch(/pow \d+ bits: solved after \d+ hashes/);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    const me = await fetch(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await me.text()).toContain('joiner');
  });
});

describe('/cx go-import', () => {
  it('404 without a configured source mirror; go-import HTML with one', async () => {
    const none = await fetch(`${s.url}/cx?go-get=1`);
    expect(none.status).toBe(404);
    expect(await none.text()).toBe('err notfound no source mirror configured\n');
    const m = await start({ CX_SEED: '0', CX_SOURCE_MIRROR: 'https://git.example.org/agent-commons.git' });
    try {
      const r = await fetch(`${m.url}/cx?go-get=1`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await r.text()).toContain('<meta name="go-import" content="commons.test/cx git https://git.example.org/agent-commons.git">');
      // Without ?go-get=1 (a person following the link): the same page, which links the mirror.
      const plain = await fetch(`${m.url}/cx`);
      expect(plain.status).toBe(200);
      expect(await plain.text()).toContain('<a href="https://git.example.org/agent-commons.git">');
    } finally {
      await m.stop();
    }
    // A service under a path: the import path keeps it (go get commons.test/agents/cx).
    const p = await start({ CX_SEED: '0', CX_SOURCE_MIRROR: 'git://git.example.org/agent-commons.git', CX_BASE_URL: 'https://commons.test/agents/' });
    try {
      expect(await (await fetch(`${p.url}/cx?go-get=1`)).text()).toContain(
        '<meta name="go-import" content="commons.test/agents/cx git git://git.example.org/agent-commons.git">',
      );
    } finally {
      await p.stop();
    }
  });
});

describe('the package bin (commander + a progress bar, over the functions of cx.mjs)', () => {
  const bin = (args: string[], input = '', env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> =>
    new Promise((ok) => {
      const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };
      const child = execFile(
        process.execPath,
        [pkg.bin.cx!, ...args],
        { env: { PATH: process.env.PATH, HOME: join(root, 'bin-home'), ...env } },
        (e, out, err) => ok({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
      );
      child.stdin!.on('error', () => undefined); // a client may exit before reading it
      child.stdin!.end(input);
    });

  it('package.json names src/clients/cx-bin.mjs, which imports cx.mjs (one implementation) plus commander and cli-progress', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.bin.cx).toBe('src/clients/cx-bin.mjs');
    const src = readFileSync(pkg.bin.cx, 'utf8');
    expect([...src.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]).sort()).toEqual(['./cx.mjs', 'cli-progress', 'commander']);
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['commander', 'cli-progress']));
    // The bin is executable with a node shebang (what npm links into node_modules/.bin).
    expect(src.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(pkg.bin.cx).mode & 0o111).not.toBe(0);
  });

  it('join shows a progress bar on stderr and saves the token 0600; e, search, verify and verify-line work against the server', async () => {
    const dir = join(root, 'bin');
    await promisify(execFile)('mkdir', ['-p', dir]);
    const tokenFile = join(dir, 'token');
    const o = ['--url', s.url, '--token-file', tokenFile];
    const j = await bin([...o, 'join', 'binuser']);
    expect(j.code, j.err).toBe(0);
    expect(j.out).toBe(`ok joined ${/ok joined (a[0-9a-z]+);/.exec(j.out)?.[1]}; token saved to ${tokenFile}\n`);
    // cli-progress off a terminal: a line when the bar starts, the full bar when solved, then the summary.
    // The bits are the challenge's (adaptive: they rise while many register, as this file's clients do).
    const bits = Number(/^pow (\d+) bits/m.exec(j.err)?.[1]);
    expect(bits).toBeGreaterThanOrEqual(8);
    expect(j.err).toMatch(new RegExp(`^pow ${bits} bits \\|[░]+\\| 0% 0/${2 ** bits} hashes`, 'm'));
    expect(j.err).toMatch(new RegExp(`^pow ${bits} bits \\|[█]+\\| 100% (\\d+)/\\1 hashes \\d+/s eta `, 'm'));
    expect(j.err).toMatch(new RegExp(`^pow ${bits} bits: solved after \\d+ hashes in [\\d.]+s$`, 'm'));
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect((await fetch(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    // A KB lookup: an error piped in (miss, exit 1), then found once an entry exists; search finds it.
    // Of a class no other test entry has (a coarse match would find another client's entry).
    const err = 'zzqclientbin: fatal: frobnicator exploded while reticulating splines\n';
    const miss = await bin([...o, 'e'], err);
    expect(miss.code).toBe(1);
    expect(miss.out).toMatch(/^err notfound no fix yet for /);
    const add = await fetch(`${s.url}/k`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ error: err, fix: 'reinstall zzqclientbin and pin the splines plugin version', eco: 'npm' }),
    });
    expect(add.status).toBe(201);
    const hit = await bin([...o, 'e'], err);
    expect(hit.code, hit.err).toBe(0);
    expect(hit.out).toContain('reinstall zzqclientbin and pin the splines plugin');
    const sr = await bin(['search', 'zzqclientbin'], '', { CX_URL: s.url });
    expect(sr.code, sr.err).toBe(0);
    expect(sr.out).toMatch(/^search hits=1\n/);

    // verify: the downloaded cx.py against the signed manifest; one changed byte fails (exit 3).
    const file = join(dir, 'cx.py');
    writeFileSync(file, Buffer.from(await (await fetch(`${s.url}/cx.py`)).arrayBuffer()));
    const ok = await bin([...o, 'verify', file]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/^ok cx\.py sha256=[0-9a-f]{64} manifest1 kid=\d+\n$/);
    const bytes = readFileSync(file);
    bytes[10] ^= 1;
    await promisify(execFile)('mkdir', ['-p', join(dir, 'bad')]);
    writeFileSync(join(dir, 'bad', 'cx.py'), bytes);
    const bad = await bin([...o, 'verify', join(dir, 'bad', 'cx.py')]);
    expect(bad.code).toBe(3);
    expect(bad.err).toMatch(/^FAIL cx\.py sha256=/);

    // verify-line: a statement line of the server (and refused as another type).
    const ann = await fetch(`${s.url}/admin/announce`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.config.operatorTokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'notice',
        starts: new Date(Date.now() - 1000).toISOString(),
        ends: new Date(Date.now() + 3_600_000).toISOString(),
        text: 'bin verify-line notice',
      }),
    });
    const line = (await ann.text()).split('\n')[1]!;
    const vl = await bin([...o, 'verify-line', line]);
    expect(vl.code, vl.err).toBe(0);
    expect(vl.out).toMatch(/^ok ann1 kid=\d+\n$/);
    expect((await bin([...o, 'verify-line'], line.replace(/^ann1/, 'att1') + '\n')).code).toBe(3);
  }, 60_000);

  it('commander: --help lists the commands; an unknown command or a missing argument is an error (exit 1)', async () => {
    const h = await bin(['--help']);
    expect(h.code).toBe(0);
    for (const c of ['join', 'e', 'brief', 'search', 'note', 'drop', 'pub', 'sub', 'verify', 'verify-line'])
      expect(h.out).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    const u = await bin(['--url', s.url, 'nosuch']);
    expect(u.code).toBe(1);
    expect(u.err).toMatch(/^error: unknown command 'nosuch'/);
    const m = await bin(['--url', s.url, 'verify']);
    expect(m.code).toBe(1);
    expect(m.err).toMatch(/^error: missing required argument 'file-or-line'/);
  });
});
