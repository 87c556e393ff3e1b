// The downloadable clients (served by the real server) and the package's `cx` command answer
// --help with their usage on stdout and exit 0; an unknown command still exits 1.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'cx-help-'));

beforeAll(async () => {
  s = await start({ CX_SEED: '0' });
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function run(exe: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((ok) => {
    const child = execFile(exe, args, { env: { PATH: process.env.PATH, HOME: dir } }, (e, out, err) =>
      ok({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
    child.stdin!.on('error', () => undefined);
    child.stdin!.end('');
  });
}

const CLIENTS = [
  { file: 'cx.mjs', exe: process.execPath, usage: /Usage: node cx\.mjs/ },
  { file: 'cx.py', exe: 'python3', usage: /Usage: python3 cx\.py/ },
  { file: 'cx.sh', exe: 'bash', usage: /Usage: bash cx\.sh/ },
];

describe('--help of the downloaded clients', () => {
  for (const c of CLIENTS)
    it(`${c.file} --help, -h and help: usage on stdout, exit 0; an unknown command exits 1`, async () => {
      const file = join(dir, c.file);
      writeFileSync(file, Buffer.from(await (await fetch(`${s.url}/${c.file}`)).arrayBuffer()));
      for (const flag of ['--help', '-h', 'help']) {
        const r = await run(c.exe, [file, flag]);
        expect(r.code, `${c.file} ${flag}: ${r.err}`).toBe(0);
        expect(r.out).toMatch(c.usage);
        expect(r.out).toMatch(/\bjoin\b/);
      }
      const bad = await run(c.exe, [file, 'no-such-command']);
      expect(bad.code).toBe(1);
      expect(bad.out).toBe('');
    });
});

it('the package command: cx --help exits 0 and lists the commands', async () => {
  const r = await run(process.execPath, [join(process.cwd(), 'src/clients/cx-bin.mjs'), '--help']);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/Usage: cx/);
  expect(r.out).toMatch(/\bjoin\b/);
});
