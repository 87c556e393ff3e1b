// Secrets as small files (0600) in the data directory (KeyStore port, src/core/platform/secrets/ports.ts).
// Shared by every process that opens the same directory; a new secret is written to a temporary
// file and linked into place, so two processes starting at once agree on one value and nobody
// reads a half-written file. A secret that changes (the signing ring) changes under a lock file
// (`<file>.lock`, created with O_EXCL), so two processes rotating at once never both start from the
// same ring and one `prev` entry is never lost.
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { limit } from '../../core/kernel/limits.js';
import type { KeyStore, SecretName } from '../../core/platform/secrets/ports.js';

const FILES: Record<SecretName, string> = {
  'operator-tokens': 'operator-tokens.json',
  seal: 'seal.key',
  drops: 'drops.key',
  workspace: 'workspace.key',
  signing: 'signing.key',
};

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;
const pause = new Int32Array(new SharedArrayBuffer(4));
/** A synchronous sleep (the port is synchronous; the lock is held for milliseconds). */
const sleep = (ms: number): void => void Atomics.wait(pause, 0, 0, ms);

/**
 * Holds `<path>.lock` while `fn` runs. The lock file names its holder (a random tag) so only the holder
 * removes it. A lock older than trust.ring_lock_stale (its holder died inside the few milliseconds it
 * holds it) is broken by renaming it aside first: of several processes breaking it at once only one
 * rename succeeds, and a breaker that finds it moved a fresh lock instead puts it back.
 */
function withLock<T>(path: string, fn: () => T): T {
  const lock = `${path}.lock`;
  const tag = `${process.pid} ${randomBytes(8).toString('hex')}`;
  const staleMs = limit('trust.ring_lock_stale') * 1000;
  const deadline = performance.now() + staleMs + limit('trust.ring_lock_wait') * 1000;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      try {
        writeSync(fd, tag);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
    }
    breakIfStale(lock, staleMs);
    if (performance.now() > deadline)
      throw new Error(`${lock}: held by another process for too long (remove it if no key:rotate or server is changing the ring)`);
    sleep(wait + Math.random() * wait);
  }
  try {
    return fn();
  } finally {
    // Ours unless it was broken as stale meanwhile (then it is someone else's now).
    if (readOrNull(lock) === tag) unlinkSync(lock);
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (code(err) === 'ENOENT') return null;
    throw err;
  }
}

function breakIfStale(lock: string, staleMs: number): void {
  let seen: string | null;
  try {
    if (Date.now() - statSync(lock).mtimeMs < staleMs) return;
    seen = readOrNull(lock);
  } catch (err) {
    if (code(err) === 'ENOENT') return;
    throw err;
  }
  const aside = `${lock}.${randomBytes(6).toString('hex')}.stale`;
  try {
    renameSync(lock, aside);
  } catch (err) {
    if (code(err) === 'ENOENT') return; // someone else broke it
    throw err;
  }
  // The lock moved may be a fresh one taken after we looked: put it back (unless yet another was taken).
  if (readOrNull(aside) !== seen) {
    try {
      linkSync(aside, lock);
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
    }
  }
  unlinkSync(aside);
}

export function fileKeyStore(dataDir: string): KeyStore {
  const write = (path: string, value: string) => {
    // rename() is atomic: a reader opens the old file or the new one.
    const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(tmp, value + '\n', { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  };
  return {
    keep(name, make) {
      const path = join(dataDir, FILES[name]);
      const read = () => readFileSync(path, 'utf8').trim();
      try {
        return { value: read(), created: false, where: path };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const value = make();
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(tmp, value + '\n', { mode: 0o600 });
      chmodSync(tmp, 0o600);
      try {
        linkSync(tmp, path);
        return { value, created: true, where: path };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        return { value: read(), created: false, where: path };
      } finally {
        unlinkSync(tmp);
      }
    },
    replace(name, value) {
      write(join(dataDir, FILES[name]), value);
    },
    update(name, change) {
      const path = join(dataDir, FILES[name]);
      return withLock(path, () => {
        const next = change(readOrNull(path)?.trim() ?? null);
        write(path, next);
        return next;
      });
    },
    read(name) {
      try {
        return readFileSync(join(dataDir, FILES[name]), 'utf8').trim();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}

/** The file names of the secrets in a data directory (backups carry them: a restore needs them). */
export const SECRET_FILES: readonly string[] = Object.values(FILES);
