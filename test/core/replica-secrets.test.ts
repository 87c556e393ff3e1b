// Keys without shared files (issue 37): two replicas of the real server on one database, each with a
// data directory of its own, given their secrets by one secrets file (CX_SECRETS_FILE) or by
// CX_SECRET_<NAME> variables. With the same secrets every cross-replica case works (a PoW challenge
// of one spent on the other, a drop written on one read on the other, a response signed by one
// verified with the other's published key, the operator tokens); with another drops key, or with
// keys of its own data directory, the second refuses to start with one line naming the key. Key
// rotation in that mode (npm run key:rotate rewrites the file, records the new fingerprint): the
// new file starts, the old one is refused. On PGlite always; on a real PostgreSQL too with CX_PG_REAL.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { solve } from '../../src/core/platform/identity/pow.js';
import { verifyStatement } from '../../src/core/platform/trust/sign.js';
import { startServer, type Running } from '../../src/server.js';
import { newSecretsFile, replica as startReplica, type SharedDb, sharedDbs } from '../helpers/replicas.js';
import { parseSecretsFile } from '../../src/store/files/external-keys.js';
import { get, put, secret, wkey } from '../drops/helpers.js';

const run = promisify(execFile);
const dirs: string[] = [];
const tmp = (p = 'cx-rs-') => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A complete secrets file made by the project's command (npm run secrets:init): once, then in-process (the same code). */
let made = false;
async function secretsFile(): Promise<string> {
  const file = join(tmp(), 'cx-secrets.json');
  if (made) return newSecretsFile(file);
  made = true;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/secrets-init.ts', file], { env: { ...process.env, CX_DATA: '' } });
  expect(stdout).toMatch(/^ok wrote .* operator-tokens, seal, drops, workspace, signing new\n/);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  return file;
}

type Db = SharedDb;

/** A replica: its own data directory (removed after the tests), the database `db`, secrets from `env`. */
async function replica(db: Db, env: Record<string, string>): Promise<Running> {
  const r = await startReplica(db, env);
  dirs.push(r.dir);
  return r;
}

async function challenge(url: string, p: 'reg' | 'w'): Promise<string> {
  const c = (await (await fetch(`${url}/v1/challenge?for=${p}`, { method: 'POST', headers: { accept: 'application/json' } })).json()) as {
    challenge: string;
    bits: number;
  };
  return solve(c.challenge, c.bits);
}

const backends = sharedDbs('cx_secrets');

for (const [name, open] of backends)
  describe(`two replicas, two data directories, one database (${name})`, () => {
    it('same secrets file: challenge, drop, signatures and operator tokens work across replicas; another drops key or a data directory of its own is refused', async () => {
      const file = await secretsFile();
      const given = parseSecretsFile(readFileSync(file, 'utf8'), file);
      const tokens = JSON.parse(given['operator-tokens']!) as Record<string, string>;
      const db = await open();
      const a = await replica(db, { CX_SECRETS_FILE: file });
      // The same secrets as variables: the second host's container passes them that way.
      const b = await replica(db, {
        CX_SECRET_SEAL: given.seal!,
        CX_SECRET_DROPS: given.drops!,
        CX_SECRET_WORKSPACE: given.workspace!,
        CX_SECRET_SIGNING: given.signing!,
        CX_SECRET_OPERATOR_TOKENS: given['operator-tokens']!,
      });
      try {
        // Nothing was written to either data directory.
        expect(a.core.config.operatorTokenFile).toBeNull();
        // A registration challenge of A, solved, spent on B; the agent's token works on A.
        const reg = await fetch(`${b.url}/v1/register`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ pow: await challenge(a.url, 'reg') }),
        });
        expect(reg.status, await reg.clone().text()).toBe(201);
        const agent = (await reg.json()) as { token: string };
        // A drop written on A (proof from A) is read on B, and the other way round.
        const s1 = secret();
        const p1 = await put(a.url, s1, 'written on a', { wk: wkey() });
        expect(p1.status, await p1.clone().text()).toBe(201);
        const r1 = await get(b.url, s1);
        expect([r1.status, await r1.text()]).toEqual([200, 'written on a']);
        const s2 = secret();
        expect((await put(b.url, s2, 'written on b', { wk: wkey(), pow: await challenge(a.url, 'w') })).status).toBe(201);
        expect(await (await get(a.url, s2)).text()).toBe('written on b');
        // A KB entry signed by A verifies with the key B publishes.
        const k = await fetch(`${a.url}/k`, {
          method: 'POST',
          headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            error: "ModuleNotFoundError: No module named 'zzqreplicamod'",
            fix: 'pip install zzqreplicamod inside the active virtualenv',
            eco: 'pypi',
            libs: 'zzqreplicamod@1.0.0',
          }),
        });
        expect(k.status).toBe(201);
        const id = /^ok k\/(k[0-9a-z]{8})/.exec(await k.text())![1]!;
        const res = await fetch(`${a.url}/k/${id}`);
        const body = Buffer.from(await res.arrayBuffer());
        const m = /^kid=(\d+); t=resp1; sig=([A-Za-z0-9_-]{86})$/.exec(res.headers.get('x-cx-sig-server') ?? '')!;
        const keyB = (await (await fetch(`${b.url}/.well-known/cx-key`)).json()) as { kid: number; pub: string };
        expect(keyB.kid).toBe(Number(m[1]));
        expect(verifyStatement(Buffer.from(keyB.pub, 'hex'), 'resp1', body, Buffer.from(m[2]!, 'base64url'))).toBe(true);
        // The operator tokens of the file open the operator routes of both.
        for (const r of [a, b]) {
          expect((await fetch(`${r.url}/admin/stats`, { headers: { authorization: `Bearer ${tokens.poll}` } })).status).toBe(200);
          expect((await fetch(`${r.url}/admin/x/queue`, { headers: { authorization: `Bearer ${tokens.ops}` } })).status).toBe(200);
          expect((await fetch(`${r.url}/admin/stats`, { headers: { authorization: 'Bearer cxo_poll_not-the-token-xxxxxxxx' } })).status).toBe(401);
        }
        // The admin rotation is refused where the ring comes from outside: the server cannot hand it out.
        const rot = await fetch(`${b.url}/admin/key/rotate`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` } });
        expect([rot.status, await rot.text()]).toEqual([
          409,
          expect.stringMatching(/^err dup secret signing comes from CX_SECRET_SIGNING and is read-only in the server: change it with npm run key:rotate/),
        ]);

        // Another drops key: refused, in one line that names it and says what to do.
        const other = 'ab'.repeat(32);
        const err = await replica(db, { CX_SECRETS_FILE: file, CX_SECRET_DROPS: other }).then(
          async (r) => (await r.close(), null),
          (e: Error) => e.message,
        );
        expect(err).toMatch(
          /^key drops \(fingerprint [0-9a-f]{16}\) differs from the one recorded in the database \([0-9a-f]{16}\): start this replica with the same secrets as the others \(.*CX_SECRET_DROPS/,
        );
        expect(err).not.toContain('\n');
        expect(err).not.toContain(other);
        // A replica making keys in its own data directory (the failure of issue 37): refused too.
        const own = await replica(db, {}).then(
          async (r) => (await r.close(), null),
          (e: Error) => e.message,
        );
        expect(own).toMatch(/^key seal .* differs from the one recorded in the database/);
      } finally {
        await a.close();
        await b.close();
        if (db.kind === 'pglite') await db.db.close();
      }
    }, 120_000);
  });

describe('secrets from the environment', () => {
  it('a missing secret or a malformed one stops the start with one line; KEY=VALUE files read as JSON ones', () => {
    const dir = tmp();
    expect(() => loadConfig({ CX_DATA: dir, CX_SECRET_SEAL: 'aa'.repeat(32) })).toThrow(
      /^config: secret operator-tokens is missing: set CX_SECRET_OPERATOR_TOKENS or CX_SECRETS_FILE/,
    );
    expect(() => loadConfig({ CX_DATA: dir, CX_SECRET_DROPS: 'nothex' })).toThrow(/^config: secret drops \(CX_SECRET_DROPS\) must be 64 lowercase hex/);
    const env = join(dir, 'cx.env');
    const toks = JSON.stringify({ admin: 'a'.repeat(20), ops: 'o'.repeat(20), poll: 'p'.repeat(20), check: 'c'.repeat(20) });
    writeFileSync(
      env,
      `# secrets\nCX_SECRET_SEAL=${'11'.repeat(32)}\nCX_SECRET_DROPS="${'22'.repeat(32)}"\nCX_SECRET_WORKSPACE=${'33'.repeat(32)}\nCX_SECRET_OPERATOR_TOKENS='${toks}'\n`,
    );
    const c = loadConfig({ CX_DATA: dir, CX_SECRETS_FILE: env });
    expect([c.sealKey.toString('hex'), c.dropKey.toString('hex'), c.workspaceKey.toString('hex'), c.operatorTokens.poll]).toEqual([
      '11'.repeat(32),
      '22'.repeat(32),
      '33'.repeat(32),
      'p'.repeat(20),
    ]);
    // The signing ring is not in that file: the core's first use of it is refused, not generated.
    expect(() => c.keys.keep('signing', () => 'x')).toThrow(/^config: secret signing is missing/);
    expect(() => loadConfig({ CX_DATA: dir, CX_SECRETS_FILE: join(dir, 'nope') })).toThrow(/^config: CX_SECRETS_FILE=.*nope cannot be read \(ENOENT\)/);
  });

  it('npm run key:rotate with CX_SECRETS_FILE rewrites the file (old key kept in prev) and records it: the new file starts, the old one is refused', async () => {
    const file = await secretsFile();
    const old = join(tmp(), 'old.json');
    copyFileSync(file, old);
    const dir = tmp();
    const env = { CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_SEED: '0', CX_GIT_MIRROR: '0', CX_BASE_URL: 'http://commons.test' };
    const first = await startServer(loadConfig({ ...env, CX_SECRETS_FILE: file }), { logger: false });
    const before = (await (await fetch(`${first.url}/.well-known/cx-key`)).json()) as { kid: number; pub: string };
    await first.close();
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/key-rotate.ts'], { env: { ...process.env, ...env, CX_SECRETS_FILE: file } });
    expect(stdout).toMatch(/^ok key kid=2 pub=[0-9a-f]{64} prev=1\nnext: give every replica the new .* and restart them/);
    expect(stdout).not.toContain(JSON.parse(readFileSync(file, 'utf8')).signing.seed);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const next = await startServer(loadConfig({ ...env, CX_SECRETS_FILE: file }), { logger: false });
    try {
      const after = (await (await fetch(`${next.url}/.well-known/cx-key`)).json()) as { kid: number; prev: { kid: number; pub: string }[] };
      expect(after.kid).toBe(2);
      expect(after.prev).toEqual([{ kid: 1, pub: before.pub }]);
    } finally {
      await next.close();
    }
    await expect(startServer(loadConfig({ ...env, CX_SECRETS_FILE: old }), { logger: false })).rejects.toThrow(
      /^signing key ring kid1 \(fingerprint kid1:[0-9a-f]{16}\) is not the one recorded in the database \(kid2:[0-9a-f]{16}\)/,
    );
    // The operator replacing a key on purpose records the keys it starts with.
    const rec = await run(process.execPath, ['--import', 'tsx', 'scripts/key-rotate.ts', '--record'], {
      env: { ...process.env, ...env, CX_SECRETS_FILE: old },
    });
    expect(rec.stdout).toMatch(/^ok recorded seal=[0-9a-f]{16} drops=/);
    const back = await startServer(loadConfig({ ...env, CX_SECRETS_FILE: old }), { logger: false });
    await back.close();
  }, 120_000);
});
