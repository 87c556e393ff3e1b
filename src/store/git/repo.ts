// The git mirror's repository (port MirrorRepo, src/core/gitmirror/ports.ts) on the real git
// binary: a bare repository at <data>/git/kb.git written with plumbing (`git fast-import`: no work
// tree, blobs streamed as the job finds them) and served by `git upload-pack --stateless-rpc`.
// Every spawn has a fixed argv (no shell; nothing from a request reaches it but stdin bytes and the
// protocol version, chosen from two fixed values) and a minimal environment that ignores the
// user's and the system's git configuration.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommitMeta, FileChange, MirrorHead, MirrorRepo, PackProcess, Snapshot } from '../../core/gitmirror/ports.js';

const BRANCH = 'refs/heads/main';
// Segments never start with a dot: no `.`, `..` or `.git` can reach a tree.
const SAFE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const HEX = /^[0-9a-f]{40}$/;
const SNAP = /^kb-(\d{13})-([0-9a-f]{40})\.tar\.gz$/;

/** The repository settings, written at creation (the serving side reads only the repository's own config). */
const SETTINGS: Array<[string, string]> = [
  ['uploadpack.allowFilter', 'true'], // partial clones (--filter) may ask for less
  ['uploadpack.allowAnySHA1InWant', 'false'],
  ['http.receivepack', 'false'],
  ['receive.denyNonFastForwards', 'true'],
  ['core.logAllRefUpdates', 'false'],
  ['gc.auto', '256'], // fast-import writes one pack per commit: gc --auto folds them together
  ['gc.autoPackLimit', '20'],
  ['pack.writeBitmapHashCache', 'true'],
  ['repack.writeBitmaps', 'true'], // bitmaps make a clone's counting fast
];

function gitEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: dir,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    ...extra,
  };
}

interface Ran {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs git with a fixed argv, collecting its output. */
function git(dir: string, args: string[], input?: Buffer): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: gitEnv(dir), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8').slice(0, 500) }));
  });
}

async function must(dir: string, args: string[]): Promise<Buffer> {
  const r = await git(dir, args);
  if (r.code !== 0) throw new Error(`git ${args[0]} failed (${r.code}): ${r.stderr.trim()}`);
  return r.stdout;
}

export function gitMirrorRepo(root: string): MirrorRepo {
  const dir = join(root, 'kb.git');
  const snapDir = join(root, 'snapshots');

  const snapshotAt = (name: string): Snapshot | null => {
    const m = SNAP.exec(name);
    if (!m) return null;
    const file = join(snapDir, name);
    return { commit: m[2]!, time: Number(m[1]), size: statSync(file).size, open: (start, end) => createReadStream(file, { start, end }) };
  };

  const head = async (): Promise<MirrorHead | null> => {
    const r = await git(dir, ['--git-dir', dir, 'show', '--no-patch', '--format=%H %ct', BRANCH, '--']);
    if (r.code !== 0) return null;
    const [commit, ct] = r.stdout.toString('utf8').trim().split(' ');
    return commit && HEX.test(commit) ? { commit, time: Number(ct) * 1000 } : null;
  };

  return {
    async init() {
      try {
        mkdirSync(root, { recursive: true, mode: 0o700 });
        mkdirSync(snapDir, { recursive: true, mode: 0o700 });
        if (!existsSync(join(dir, 'HEAD'))) {
          const tmp = join(root, `kb.git.${process.pid}.tmp`);
          rmSync(tmp, { recursive: true, force: true });
          await must(root, ['init', '--quiet', '--bare', '--initial-branch=main', tmp]);
          appendFileSync(
            join(tmp, 'config'),
            SETTINGS.map(([k, v]) => {
              const [sec, key] = [k.slice(0, k.lastIndexOf('.')), k.slice(k.lastIndexOf('.') + 1)];
              return `[${sec}]\n\t${key} = ${v}\n`;
            }).join(''),
          );
          renameSync(tmp, dir); // a half-made repository is never seen
        }
        return true;
      } catch {
        return false;
      }
    },

    head,

    async files() {
      const files = new Map<string, string>();
      const r = await git(dir, ['--git-dir', dir, 'ls-tree', '-r', '-z', '--full-tree', BRANCH]);
      if (r.code !== 0) return files;
      // <mode> SP <type> SP <id> TAB <path> NUL
      for (const rec of r.stdout.toString('utf8').split('\0')) {
        const tab = rec.indexOf('\t');
        if (tab < 0) continue;
        files.set(rec.slice(tab + 1), rec.slice(tab - 40, tab));
      }
      return files;
    },

    async commit(parent: string | null, changes: AsyncIterable<FileChange>, meta: CommitMeta) {
      if (parent !== null && !HEX.test(parent)) throw new Error('git mirror: bad parent');
      let child: ReturnType<typeof spawn> | null = null;
      let closed: Promise<[number | null]> | null = null;
      const errs: Buffer[] = [];
      const write = async (b: Buffer | string) => {
        if (!child!.stdin!.write(b)) await once(child!.stdin!, 'drain');
      };
      const ops: string[] = [];
      let mark = 0;
      try {
        for await (const c of changes) {
          if (!SAFE_PATH.test(c.path)) throw new Error('git mirror: unsafe path');
          if (!child) {
            // --done: a stream cut short (a crash of this process) commits nothing.
            child = spawn('git', ['--git-dir', dir, 'fast-import', '--quiet', '--done', '--date-format=raw'], {
              env: gitEnv(dir),
              stdio: ['pipe', 'ignore', 'pipe'],
            });
            child.stderr!.on('data', (b: Buffer) => errs.push(b));
            child.stdin!.on('error', () => undefined);
            closed = once(child, 'close') as Promise<[number | null]>;
          }
          if (c.content) {
            mark++;
            await write(`blob\nmark :${mark}\ndata ${c.content.length}\n`);
            await write(c.content);
            await write('\n');
            ops.push(`M 100644 :${mark} ${c.path}\n`);
          } else {
            ops.push(`D ${c.path}\n`);
          }
        }
        if (!child) return null;
        const msg = Buffer.from(meta.message());
        const secs = Math.floor(meta.time / 1000);
        const who = `${meta.name.replace(/[<>\n]/g, '')} <${meta.email.replace(/[<>\n]/g, '')}> ${secs} +0000`;
        await write(`commit ${BRANCH}\ncommitter ${who}\ndata ${msg.length}\n`);
        await write(msg);
        await write('\n');
        if (parent) await write(`from ${parent}\n`);
        for (const op of ops) await write(op);
        await write('\ndone\n');
        child.stdin!.end();
        const [code] = await closed!;
        if (code !== 0) throw new Error(`git fast-import failed (${code}): ${Buffer.concat(errs).toString('utf8').slice(0, 500).trim()}`);
      } catch (err) {
        if (child) {
          child.kill('SIGKILL');
          await closed;
        }
        throw err;
      }
      const now = await head();
      if (!now) throw new Error('git mirror: no head after commit');
      // Folds the small packs fast-import leaves when there are enough of them (cheap otherwise).
      await git(dir, ['--git-dir', dir, 'gc', '--auto', '--quiet']);
      return now.commit;
    },

    async snapshot() {
      const names = existsSync(snapDir)
        ? readdirSync(snapDir)
            .filter((n) => SNAP.test(n))
            .sort()
        : [];
      return names.length ? snapshotAt(names[names.length - 1]!) : null;
    },

    async writeSnapshot(commit: string, time: number) {
      if (!HEX.test(commit)) throw new Error('git mirror: bad commit');
      const name = `kb-${String(Math.floor(time)).padStart(13, '0')}-${commit}.tar.gz`;
      const tmp = join(snapDir, `.${name}.tmp`);
      await must(dir, ['--git-dir', dir, 'archive', '--format=tar.gz', '--prefix=kb/', '-o', tmp, commit]);
      renameSync(tmp, join(snapDir, name));
      // Older tarballs go; a reader that has one open keeps reading it.
      for (const n of readdirSync(snapDir)) if (n !== name) rmSync(join(snapDir, n), { force: true });
      return snapshotAt(name)!;
    },

    async pack(from, to) {
      if (!HEX.test(to) || (from !== null && !HEX.test(from))) throw new Error('git mirror: bad commit');
      // Thin: trees are stored as deltas against the parent's (which every process applying the pack
      // has: packs are applied in order), a tenth of the size of whole trees.
      const r = await git(
        dir,
        ['--git-dir', dir, 'pack-objects', '--revs', '--thin', '--stdout', '--quiet'],
        Buffer.from(`${to}\n${from ? `^${from}\n` : ''}`),
      );
      if (r.code !== 0) throw new Error(`git pack-objects failed (${r.code}): ${r.stderr.trim()}`);
      return r.stdout;
    },

    async applyPack(pack) {
      const r = await git(dir, ['--git-dir', dir, 'index-pack', '--stdin', '--fix-thin'], pack);
      if (r.code !== 0) throw new Error(`git index-pack failed (${r.code}): ${r.stderr.trim()}`);
      // One pack per applied commit: gc --auto folds them together when there are enough.
      await git(dir, ['--git-dir', dir, 'gc', '--auto', '--quiet']);
    },

    async has(commit) {
      if (!HEX.test(commit)) return false;
      return (await git(dir, ['--git-dir', dir, 'cat-file', '-e', `${commit}^{commit}`])).code === 0;
    },

    async setHead(commit) {
      if (!HEX.test(commit)) throw new Error('git mirror: bad commit');
      await must(dir, ['--git-dir', dir, 'update-ref', BRANCH, commit]);
    },

    uploadPack(kind, body, opts): PackProcess {
      const args = ['upload-pack', '--strict', '--stateless-rpc', ...(kind === 'adv' ? ['--advertise-refs'] : []), dir];
      const child = spawn('git', args, { env: gitEnv(dir, opts.v2 ? { GIT_PROTOCOL: 'version=2' } : {}), stdio: ['pipe', 'pipe', 'ignore'] });
      const kill = () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      };
      const timer = setTimeout(kill, opts.timeoutMs);
      timer.unref();
      const done = new Promise<number | null>((resolve) => {
        child.on('error', () => resolve(null));
        child.on('close', (code) => resolve(code));
      }).finally(() => clearTimeout(timer));
      child.stdin.on('error', () => undefined);
      child.stdin.end(body ?? undefined);
      return { stdout: child.stdout, done, kill };
    },
  };
}
