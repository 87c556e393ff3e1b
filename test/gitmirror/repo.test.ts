// The git adapter of the mirror (src/store/git/repo.ts) on the real git binary: a bare repository
// made once, commits that write and delete files on top of a named parent (a stale parent is
// refused: the branch never forks), nothing written for no changes, unsafe paths refused, the
// tarball replaced atomically, and an upload-pack killed at its time limit.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommitMeta, FileChange } from '../../src/core/gitmirror/ports.js';
import { blobId } from '../../src/core/gitmirror/render.js';
import { gitMirrorRepo } from '../../src/store/git/repo.js';

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'cx-gitrepo-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function* from(changes: FileChange[]): AsyncGenerator<FileChange> {
  yield* changes;
}
const meta = (time: number, message = 'm'): CommitMeta => ({ name: 'T', email: 't@example.test', time, message: () => message });
const b = (s: string) => Buffer.from(s);

describe('gitMirrorRepo', () => {
  const repo = gitMirrorRepo(root);
  let first = '';

  it('init makes a bare repository once; no head and no files before the first commit', async () => {
    expect(await repo.init()).toBe(true);
    expect(await repo.init()).toBe(true);
    expect(await repo.head()).toBeNull();
    expect((await repo.files()).size).toBe(0);
    expect(await repo.snapshot()).toBeNull();
    const { stdout } = await run('git', ['--git-dir', join(root, 'kb.git'), 'config', '--get', 'http.receivepack']);
    expect(stdout.trim()).toBe('false');
  });

  it('commits files with their blob ids; nothing to commit writes nothing', async () => {
    expect(await repo.commit(null, from([]), meta(1_000_000))).toBeNull();
    first = (await repo.commit(
      null,
      from([
        { path: 'README.md', content: b('r\n') },
        { path: 'entries/01/k01.md', content: b('one\n') },
      ]),
      meta(1_700_000_000_000, 'first'),
    ))!;
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(await repo.head()).toEqual({ commit: first, time: 1_700_000_000_000 });
    expect(await repo.files()).toEqual(
      new Map([
        ['README.md', blobId(b('r\n'))],
        ['entries/01/k01.md', blobId(b('one\n'))],
      ]),
    );
  });

  it('the next commit writes and deletes on top of its parent; a stale parent is refused', async () => {
    const second = (await repo.commit(
      first,
      from([{ path: 'entries/01/k01.md' }, { path: 'entries/02/k02.md', content: b('two\n') }]),
      meta(1_700_000_100_000),
    ))!;
    expect([...(await repo.files()).keys()].sort()).toEqual(['README.md', 'entries/02/k02.md']);
    const { stdout } = await run('git', ['--git-dir', join(root, 'kb.git'), 'rev-parse', `${second}^`]);
    expect(stdout.trim()).toBe(first);
    await expect(repo.commit(first, from([{ path: 'x.md', content: b('x') }]), meta(1_700_000_200_000))).rejects.toThrow(/fast-import failed/);
    expect((await repo.head())!.commit).toBe(second);
  });

  it('refuses paths that are not plain', async () => {
    const head = (await repo.head())!.commit;
    for (const path of ['../x', 'a//b', '/abs', 'a/../b', 'a/./b', '.git/config', 'x/.git/y', 'a b', 'a\nb', '']) {
      await expect(repo.commit(head, from([{ path, content: b('x') }]), meta(1_700_000_300_000)), JSON.stringify(path)).rejects.toThrow(/unsafe path/);
    }
    expect((await repo.head())!.commit).toBe(head);
  });

  it('the tarball of a commit replaces the previous one; tar lists the files under kb/', async () => {
    const head = (await repo.head())!;
    const s1 = await repo.writeSnapshot(first, 1_000);
    const s2 = await repo.writeSnapshot(head.commit, 2_000);
    expect(await repo.snapshot()).toMatchObject({ commit: head.commit, time: 2_000, size: s2.size });
    expect(s1.commit).toBe(first);
    expect(readdirSync(join(root, 'snapshots'))).toHaveLength(1);
    const file = join(root, 'snapshots', readdirSync(join(root, 'snapshots'))[0]!);
    const { stdout } = await run('tar', ['-tzf', file]);
    expect(
      stdout
        .split('\n')
        .filter((l) => !l.endsWith('/') && l)
        .sort(),
    ).toEqual(['kb/README.md', 'kb/entries/02/k02.md']);
  });

  it('an upload-pack past its time limit is killed; one within it ends with 0', async () => {
    // A pack of 4 MiB of random bytes takes git far longer than 30 ms to compress and send.
    const big = gitMirrorRepo(mkdtempSync(join(root, 'big-')));
    await big.init();
    const files = Array.from({ length: 64 }, (_, i) => ({ path: `r/${i}.bin`, content: randomBytes(64 * 1024) }));
    const head = (await big.commit(null, from(files), meta(1_700_000_000_000)))!;
    const want = Buffer.from(`0032want ${head}\n00000009done\n`);
    const slow = big.uploadPack('rpc', want, { v2: false, timeoutMs: 30 });
    slow.stdout.resume();
    expect(await slow.done).toBeNull();
    const ok = big.uploadPack('rpc', want, { v2: false, timeoutMs: 60_000 });
    let bytes = 0;
    ok.stdout.on('data', (c: Buffer) => (bytes += c.length));
    expect(await ok.done).toBe(0);
    expect(bytes).toBeGreaterThan(4 * 1024 * 1024);
    const adv = big.uploadPack('adv', null, { v2: true, timeoutMs: 60_000 });
    const chunks: Buffer[] = [];
    adv.stdout.on('data', (c: Buffer) => chunks.push(c));
    expect(await adv.done).toBe(0);
    expect(Buffer.concat(chunks).toString()).toMatch(/^000eversion 2\n/);
  });
});
