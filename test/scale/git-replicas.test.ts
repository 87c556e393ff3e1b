// The git mirror on any number of hosts (issue 37): two replicas with data directories of their own
// (their own repositories, nothing shared but the database) behind HAProxy with deploy/haproxy.cfg.
// The real git client clones through the balancer (its rounds land on either replica) and from each
// replica directly: the same commit ids. A commit made by the other replica is fetched from the first
// as a fast-forward (no forced update, the earlier commit its ancestor): one history everywhere.
// On PGlite (in-process, shared by both) always, when haproxy and git are installed; on a real
// PostgreSQL too with CX_PG_REAL.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Running } from '../../src/server.js';
import { newSecretsFile, replica, type SharedDb, sharedDbs } from '../helpers/replicas.js';
import { register } from '../helpers/server.js';
import { haproxyBin, startBalancer } from './cluster.js';

const run = promisify(execFile);
const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};
let netN = 0;
const git = async (args: string[], cwd: string) =>
  (await run('git', ['-c', `http.extraHeader=X-Forwarded-For: 10.88.${++netN}.9`, ...args], { cwd, env: GIT_ENV, maxBuffer: 64 << 20 })).stdout.trim();
// stderr too: `git fetch` reports a forced update there.
const gitAll = async (args: string[], cwd: string) => {
  const r = await run('git', ['-c', `http.extraHeader=X-Forwarded-For: 10.88.${++netN}.9`, ...args], { cwd, env: GIT_ENV });
  return r.stdout + r.stderr;
};

const hasGit = !spawnSync('git', ['--version']).error;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const backends = sharedDbs('cx_gitrep');

async function addEntry(url: string, token: string, n: number): Promise<void> {
  const r = await fetch(`${url}/k`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': '10.89.0.1' },
    body: JSON.stringify({
      error: `ModuleNotFoundError: No module named 'zzqgitrep${n}'`,
      fix: `pip install zzqgitrep${n} inside the active virtualenv`,
      eco: 'pypi',
      libs: `zzqgitrep${n}@1.0.0`,
    }),
  });
  expect(r.status, await r.clone().text()).toBe(201);
}

if (haproxyBin() && hasGit)
  for (const [name, open] of backends)
    describe(`git mirror on two replicas with their own data directories, behind HAProxy (${name})`, () => {
      it('clones through the balancer and from each replica get the same commits; a commit made by the other replica fetches as a fast-forward', async () => {
        const work = mkdtempSync(join(tmpdir(), 'cx-gitrep-'));
        dirs.push(work);
        const secrets = newSecretsFile(join(work, 'secrets.json'));
        const db = await open();
        const env = { CX_SECRETS_FILE: secrets, CX_GIT_MIRROR: '1' };
        const started: Running[] = [];
        let lb: Awaited<ReturnType<typeof startBalancer>> | null = null;
        try {
          const a = await replica(db, env);
          started.push(a);
          dirs.push(a.dir);
          const b = await replica(db, env);
          started.push(b);
          dirs.push(b.dir);
          lb = await startBalancer([
            { n: 1, url: a.url },
            { n: 2, url: b.url },
          ]);
          const who = await register(lb.url, 'gitrep', { 'x-forwarded-for': '10.89.0.1' });
          for (const n of [1, 2, 3]) await addEntry(lb.url, who.token, n);
          // Replica A's pass commits; B has made no commit of its own.
          const first = await a.core.mirror!.sync();
          expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
          expect(first.files).toBe(3);

          // Three clones through the balancer (round robin: their requests reach both) and one from each replica.
          const heads: string[] = [];
          for (const [dest, url] of [
            ['lb1', lb.url],
            ['lb2', lb.url],
            ['lb3', lb.url],
            ['ra', a.url],
            ['rb', b.url],
          ] as const) {
            await git(['clone', '--quiet', `${url}/git/kb.git`, dest], work);
            heads.push(await git(['rev-parse', 'HEAD'], join(work, dest)));
          }
          expect(heads).toEqual(Array(5).fill(first.commit));
          const logA = await git(['log', '--format=%H %T %an %at %s'], join(work, 'ra'));
          expect(await git(['log', '--format=%H %T %an %at %s'], join(work, 'rb'))).toBe(logA);

          // B commits the next change; the clone made from A fetches it from A.
          await addEntry(lb.url, who.token, 4);
          const second = await b.core.mirror!.sync();
          expect(second).toMatchObject({ written: 1, deleted: 0, files: 4 });
          const said = await gitAll(['fetch', 'origin'], join(work, 'ra'));
          expect(said).not.toMatch(/forced update/);
          expect(await git(['rev-parse', 'origin/main'], join(work, 'ra'))).toBe(second.commit);
          expect(await git(['rev-parse', `${second.commit}^`], join(work, 'ra'))).toBe(first.commit);
          // And through the balancer, whichever replica answers: the same.
          await gitAll(['fetch', 'origin'], join(work, 'lb1'));
          expect(await git(['rev-parse', 'origin/main'], join(work, 'lb1'))).toBe(second.commit);
          // A's own repository holds B's commit, not one of its own.
          expect((await a.core.mirror!.sync()).commit).toBeNull();
          expect(await git(['--git-dir', join(a.dir, 'git', 'kb.git'), 'rev-parse', 'refs/heads/main'], work)).toBe(second.commit);
        } finally {
          lb?.child.kill('SIGKILL');
          if (lb) rmSync(lb.cfgDir, { recursive: true, force: true });
          for (const r of started) await r.close();
          if (db.kind === 'pglite') await db.db.close();
        }
      }, 120_000);
    });
