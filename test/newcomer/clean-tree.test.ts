// `npm test` leaves the checkout clean: scripts/tree-state.mjs (first and last step of the test
// script) fails a run that changed, added or removed a path git sees; the page tests' screenshots go
// to an ignored folder unless UPDATE_SCREENSHOTS=1. Checked on a scratch git repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(process.cwd(), 'scripts/tree-state.mjs');
const repo = mkdtempSync(join(tmpdir(), 'cx-tree-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const sh = (cmd: string, args: string[], cwd = repo) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
const state = (cmd: 'save' | 'check', cwd = repo) => spawnSync(process.execPath, [script, cmd], { cwd, encoding: 'utf8' });

function init() {
  rmSync(repo, { recursive: true, force: true });
  mkdirSync(repo);
  sh('git', ['init', '-q']);
  writeFileSync(join(repo, '.gitignore'), '.tmp/\n');
  writeFileSync(join(repo, 'kept.txt'), 'one\n');
  writeFileSync(join(repo, 'shot.png'), 'png');
  sh('git', ['add', '.']);
  sh('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.t', 'commit', '-qm', 'init']);
}

describe('scripts/tree-state.mjs', () => {
  it('a run that writes only ignored files passes', () => {
    init();
    expect(state('save').status).toBe(0);
    mkdirSync(join(repo, '.tmp/screenshots'), { recursive: true });
    writeFileSync(join(repo, '.tmp/screenshots/page.png'), 'x');
    const r = state('check');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('as the test run found it');
  });
  it('a changed tracked file, a new unignored file and a deleted one fail, each named', () => {
    init();
    state('save');
    writeFileSync(join(repo, 'shot.png'), 'new pixels');
    writeFileSync(join(repo, 'report.json'), '{}');
    unlinkSync(join(repo, 'kept.txt'));
    const r = state('check');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/changed shot\.png/);
    expect(r.stderr).toMatch(/new or changed report\.json/);
    expect(r.stderr).toMatch(/deleted kept\.txt/);
  });
  it("a developer's own uncommitted edit is not the run's: only a further change to it fails", () => {
    init();
    writeFileSync(join(repo, 'kept.txt'), 'my edit\n');
    state('save');
    expect(state('check').status).toBe(0);
    writeFileSync(join(repo, 'kept.txt'), 'my edit, then the tests wrote here\n');
    expect(state('check').status).toBe(1);
  });
  it('outside a git work tree it says so and passes; check without save is an error', () => {
    const bare = mkdtempSync(join(tmpdir(), 'cx-nogit-'));
    try {
      const r = state('check', bare);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('not a git work tree');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
    init();
    expect(state('check').status).toBe(2);
  });
});

describe('this repository', () => {
  it('npm test runs the save first and the check last', () => {
    const test = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { test: string } }).scripts.test;
    expect(test.startsWith('node scripts/tree-state.mjs save && ')).toBe(true);
    expect(test.endsWith(' && node scripts/tree-state.mjs check')).toBe(true);
  });
  it('screenshots go to an ignored folder unless UPDATE_SCREENSHOTS=1', () => {
    const where = (env: Record<string, string>) =>
      execFileSync(process.execPath, ['--import', 'tsx', '-e', "import('./test/pages/browser.ts').then((m) => console.log(m.SHOTS))"], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      }).trim();
    const dflt = relative(process.cwd(), where({ UPDATE_SCREENSHOTS: '' }));
    expect(dflt).toBe(join('.tmp', 'screenshots'));
    expect(spawnSync('git', ['check-ignore', '-q', join(dflt, 'x.png')]).status).toBe(0);
    expect(relative(process.cwd(), where({ UPDATE_SCREENSHOTS: '1' }))).toBe(join('docs', 'screenshots'));
  });
});
