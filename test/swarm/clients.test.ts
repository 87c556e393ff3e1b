// `pub` and `sub` in the downloadable clients (cx.mjs, cx.py, cx.sh) against the real server.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let root: string;
beforeAll(async () => {
  s = await start();
  root = mkdtempSync(join(tmpdir(), 'cx-swarm-clients-'));
});
afterAll(async () => {
  await s.stop();
  rmSync(root, { recursive: true, force: true });
});

const CLIENTS = [
  { file: 'cx.mjs', exe: process.execPath },
  { file: 'cx.py', exe: 'python3' },
  { file: 'cx.sh', exe: 'bash' },
];

for (const client of CLIENTS)
  describe(client.file, () => {
    const run = (dir: string, args: string[], input = ''): Promise<{ code: number; out: string; err: string }> =>
      new Promise((ok) => {
        const child = execFile(
          client.exe,
          [join(dir, client.file), ...args],
          { env: { PATH: process.env.PATH, HOME: dir, CX_URL: s.url, CX_TOKEN_FILE: join(dir, 'token') } },
          (e, out, err) => ok({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
        );
        child.stdin!.on('error', () => undefined); // a client may exit before reading it
        child.stdin!.end(input);
      });

    it('pub publishes a line (args or stdin), sub subscribes with fields and lists; errors are the server line, exit 2', async () => {
      const dir = join(root, client.file);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, client.file), Buffer.from(await (await fetch(`${s.url}/${client.file}`)).arrayBuffer()));
      const j = await run(dir, ['join']);
      expect(j.code, j.err).toBe(0);
      const topic = `r:ClientsRoom_${client.file.replace('.', '_')}_000.news`;
      const sub = await run(dir, ['sub', topic, 'kv:cli/last', 'filter=prefix:ship ', 'ttl_h=2']);
      expect(sub.code, sub.err).toBe(0);
      expect(sub.out).toMatch(new RegExp(`^ok sub u[0-9a-z]{9} topic=${topic} sink=kv:cli/last mode=each `));
      const p1 = await run(dir, ['pub', topic, 'ship', 'it']);
      expect(p1.code, p1.err).toBe(0);
      expect(p1.out).toBe(`ok ${topic} seq=1\nnext: GET /v1/topics/${topic}?since=1 for the lines after it\n`);
      const p2 = await run(dir, ['pub', topic], 'ship from stdin\n');
      expect(p2.out).toBe(`ok ${topic} seq=2\nnext: GET /v1/topics/${topic}?since=2 for the lines after it\n`);
      await run(dir, ['pub', topic, 'not this one']);
      const list = await run(dir, ['sub']);
      expect(list.code, list.err).toBe(0);
      expect(list.out).toMatch(/^subs 1 cap=10\nu[0-9a-z]{9} topic=r:\S+ sink=kv:cli\/last mode=each filter="prefix:ship " /);
      const token = readFileSync(join(dir, 'token'), 'utf8').trim();
      await vi.waitFor(
        async () => {
          const kv = await (await fetch(`${s.url}/v1/kv/cli/last?f=json`, { headers: { authorization: `Bearer ${token}` } })).json();
          expect(kv).toMatchObject({ value: 'ship from stdin', seq: 2, writes: 2 });
        },
        { timeout: 10_000 },
      );
      const bad = await run(dir, ['pub', 'g:nope', 'x']);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/^err auth g: topics need trust level L1/);
    }, 60_000);
  });
