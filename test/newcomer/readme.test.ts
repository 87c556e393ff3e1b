// The README gets a newcomer from nothing to a fix: its set-up commands keep their meaning, and its
// first-hour commands (look up an error, register with the served client or by hand, publish the
// fix, find it again) run as written, in bash, against the real server.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const lineOf = (re: RegExp) => {
  for (const b of blocks) for (const l of b.split('\n')) if (re.test(l)) return l.replace(/\s+#.*$/, '');
  throw new Error(`README: no command line matching ${re}`);
};
/** A README block whose first line matches, with its continuation lines joined. */
const blockOf = (re: RegExp) => {
  const b = blocks.find((x) => re.test(x.split('\n')[0]!));
  if (!b) throw new Error(`README: no block starting ${re}`);
  return b
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, ''))
    .join('\n');
};

describe('set-up commands', () => {
  const [first, second] = blocks[0]!.split('\n').map((l) => l.replace(/\s+#.*$/, ''));
  it('the first installs and starts; the second refreshes the package lists, installs and runs the whole suite', () => {
    expect(first).toBe('scripts/with-node.sh npm ci && npm start');
    expect(second).toMatch(/^apt-get update && apt-get install -y [a-z0-9 -]+ && scripts\/with-node\.sh npm ci && npm test$/);
  });
  it(".ci/run runs the README's install and test commands", () => {
    const run = readFileSync(join(process.cwd(), '.ci/run'), 'utf8');
    expect(run).toMatch(/^scripts\/with-node\.sh npm ci$/m);
    expect(run).toMatch(/^npm test$/m);
  });
  it('the suite runs on the Node that package.json pins (what scripts/with-node.sh installs), which engines accepts', () => {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
    expect(process.versions.node).toBe(pkg.devDependencies.node);
    expect(pkg.engines.node).toMatch(new RegExp(`^\\^${process.versions.node.split('.')[0]}\\.`));
  });
  it('every apt-get install of the README refreshes the package lists first', () => {
    for (const b of blocks) for (const l of b.split('\n')) if (/apt-get install/.test(l)) expect(l).toMatch(/apt-get update && apt-get install/);
  });
  it('says how to configure the logs, and keeps one short benchmark table with the story in docs/benchmarks.md', () => {
    expect(readme).toMatch(/^\| `CX_LOG` \|/m);
    const bench = readme.slice(readme.indexOf('## Benchmarks'));
    expect(bench.match(/^\|---/gm)?.length).toBe(1);
    expect(bench.split('\n').filter((l) => l.startsWith('| ')).length).toBeLessThanOrEqual(8);
    expect(bench).toContain('[docs/benchmarks.md](docs/benchmarks.md)');
    expect(readFileSync(join(process.cwd(), 'docs/benchmarks.md'), 'utf8')).toContain("Where a KB lookup's time goes");
  });
});

describe('the first hour, as written, against the real server', () => {
  let s: TestServer;
  let dir: string;
  let host: string;
  beforeAll(async () => {
    s = await start({ CX_SEED: '0' });
    host = s.url.replace(/^http:\/\//, '');
    dir = mkdtempSync(join(tmpdir(), 'cx-readme-'));
  });
  afterAll(async () => {
    await s?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const bash = (script: string, env: Record<string, string> = {}) =>
    new Promise<{ code: number; out: string; err: string }>((ok) =>
      execFile(
        'bash',
        ['-c', `set -e\n${script.replaceAll('localhost:8080', host)}`],
        { cwd: dir, env: { PATH: process.env.PATH!, HOME: dir, ...env } },
        (e, out, err) => ok({ code: e ? ((e as { code?: number }).code ?? 1) : 0, out, err }),
      ),
    );
  const OUTPUT = 'Traceback (most recent call last):\n  File "app.py", line 1, in <module>\nModuleNotFoundError: No module named \'zzqreadmemod\'\n';

  it('POST /e: the README line answers; a bare --data-binary gets the line naming text/plain', async () => {
    writeFileSync(join(dir, 'out.txt'), OUTPUT);
    const look = await bash(lineOf(/--data-binary @out\.txt -H 'Content-Type: text\/plain' localhost:8080\/e/));
    expect(look.out).toMatch(/^err notfound no fix yet for py:ModuleNotFoundError/);
    const bare = await bash('curl -s --data-binary @out.txt localhost:8080/e');
    expect(bare.out).toBe('err bad text: required (send the text as Content-Type: text/plain, or as form field text)\n');
    expect(readme).toContain('`400 err bad text: required (send the text as\nContent-Type: text/plain, or as form field text)`');
  });

  it('register with the served client (cx.mjs join) and by hand (curl + the python3 solver)', async () => {
    const client = await bash(lineOf(/cx\.mjs join myname/), { CX_URL: s.url });
    expect(client.code, client.err).toBe(0);
    expect(readFileSync(join(dir, '.config/cx/token'), 'utf8')).toMatch(/^cx_/);
    const hand = await bash(blockOf(/^c=\$\(curl -s -X POST 'localhost:8080\/v1\/challenge\?for=reg'/));
    expect(hand.code, hand.err).toBe(0);
    expect(hand.out).toMatch(/^ok a[0-9a-z]{6} token=cx_\S+ lvl=L0\nnext: /);
    const token = /token=(cx_\S+)/.exec(hand.out)![1]!;

    // Publish the fix as the README writes it, then the same output finds it.
    const publish = await bash(blockOf(/^curl -s localhost:8080\/k -H 'Authorization: Bearer cx_\.\.\.'/).replace('cx_...', token));
    expect(publish.out, publish.err).toMatch(/^ok k\/k[0-9a-z]{8} /);
    const again = await bash(lineOf(/--data-binary @out\.txt -H 'Content-Type: text\/plain' localhost:8080\/e/));
    expect(again.out).toMatch(/match=exact/);
    expect(again.out).toContain('pin numpy<2');
  });
});
