// ExportFiles on the data directory: `<data>/export/<YYYY-MM-DD>/<file>`. A draft is written in a
// hidden sibling folder and renamed into place at commit, so a reader sees a whole export or none,
// and a file being served keeps its bytes (an open descriptor) when a newer export replaces it.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ExportDraft, ExportFiles } from '../../core/exports/ports.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** Drafts left by a process that died are removed after a day (another process may be writing one now). */
const STALE_MS = 86_400_000;

export function fileExports(dir: string): ExportFiles {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const check = (date: string, name?: string) => {
    if (!DATE.test(date) || (name !== undefined && !NAME.test(name))) throw new Error('bad export date or file name');
  };
  const sweepDrafts = async () => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (!e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      const s = await stat(p).catch(() => null);
      if (s && Date.now() - s.mtimeMs > STALE_MS) await rm(p, { recursive: true, force: true });
    }
  };
  return {
    async begin(date) {
      check(date);
      await sweepDrafts();
      const draft = join(dir, `.${date}.${process.pid}.${randomBytes(4).toString('hex')}`);
      mkdirSync(draft, { mode: 0o755 });
      let done = false;
      const d: ExportDraft = {
        create(name) {
          check(date, name);
          return createWriteStream(join(draft, name), { mode: 0o644 });
        },
        async commit() {
          if (done) throw new Error('export draft already closed');
          done = true;
          const final = join(dir, date);
          const old = `${join(dir, `.${date}`)}.old.${randomBytes(4).toString('hex')}`;
          const had = await rename(final, old).then(
            () => true,
            (err: NodeJS.ErrnoException) => {
              if (err.code !== 'ENOENT') throw err;
              return false;
            },
          );
          await rename(draft, final);
          if (had) await rm(old, { recursive: true, force: true });
        },
        async abort() {
          done = true;
          await rm(draft, { recursive: true, force: true });
        },
      };
      return d;
    },
    async dates() {
      return (await readdir(dir)).filter((n) => DATE.test(n)).sort();
    },
    async open(date, name) {
      check(date, name);
      const p = join(dir, date, name);
      const s = await stat(p).catch(() => null);
      if (!s || !s.isFile()) return null;
      return { size: s.size, mtime: s.mtimeMs, stream: (o = {}) => createReadStream(p, o) };
    },
    async read(date, name) {
      check(date, name);
      return readFile(join(dir, date, name)).catch(() => null);
    },
    async remove(date) {
      check(date);
      await rm(join(dir, date), { recursive: true, force: true });
    },
  };
}
