#!/usr/bin/env node
// `npm test` leaves the checkout as it found it: `save` (first step) records what git sees (every
// changed or untracked, not ignored path, with a hash of its bytes); `check` (last step) fails, naming
// the paths, when a test run changed, added or removed any of them. Comparing with the start, not
// with a clean tree, keeps a developer's own uncommitted edits out of it; in CI (a clean clone) the
// start is empty, so any file a test writes into a tracked or unignored place fails the run.
// Without git or outside a work tree there is nothing to compare: it says so and passes.
// Usage: node scripts/tree-state.mjs save|check [state file]   (default .tmp/tree-state.json)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const [cmd, fileArg] = process.argv.slice(2);
const git = (args) => execFileSync('git', args, { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });

function root() {
  try {
    return git(['rev-parse', '--show-toplevel']).toString().trim();
  } catch {
    return null;
  }
}

/** path → hash of its bytes (or `deleted`), for every path `git status` lists. */
function snapshot(top) {
  const out = git(['-C', top, 'status', '--porcelain=v1', '-z', '--untracked-files=all']).toString();
  const entries = {};
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const e = parts[i];
    if (!e) continue;
    const code = e.slice(0, 2);
    const path = e.slice(3);
    // A rename lists its source next: that path is gone.
    if (code[0] === 'R' || code[0] === 'C') entries[parts[++i]] = 'deleted';
    const abs = join(top, path);
    entries[path] =
      existsSync(abs) && statSync(abs).isFile() ? createHash('sha256').update(readFileSync(abs)).digest('hex') : existsSync(abs) ? 'dir' : 'deleted';
  }
  return entries;
}

const top = root();
if (!top) {
  console.log('tree-state: not a git work tree (or no git): nothing to compare');
  process.exit(0);
}
const file = resolve(fileArg ?? join(top, '.tmp', 'tree-state.json'));
if (cmd === 'save') {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(snapshot(top)));
} else if (cmd === 'check') {
  if (!existsSync(file)) {
    console.error(`tree-state: no saved state at ${file}: run "node scripts/tree-state.mjs save" before the tests`);
    process.exit(2);
  }
  const before = JSON.parse(readFileSync(file, 'utf8'));
  const after = snapshot(top);
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((p) => before[p] !== after[p]).sort();
  if (changed.length) {
    console.error(
      `tree-state: the test run changed the checkout (tests must write to ignored folders such as .tmp/; committed artifacts change only when asked, e.g. UPDATE_SCREENSHOTS=1):`,
    );
    for (const p of changed)
      console.error(
        `  ${after[p] === undefined ? 'restored' : before[p] === undefined ? (after[p] === 'deleted' ? 'deleted' : 'new or changed') : after[p] === 'deleted' ? 'deleted' : 'changed'} ${p}`,
      );
    process.exit(1);
  }
  console.log('tree-state: the checkout is as the test run found it');
} else {
  console.error('usage: node scripts/tree-state.mjs save|check [state file]');
  process.exit(2);
}
