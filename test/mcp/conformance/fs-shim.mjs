// Node 20 lacks fs.globSync, which @modelcontextprotocol/conformance imports; supply the one
// pattern shape it uses (`**/<name>` under a cwd).
import * as fs from 'node:fs';
import { join, relative } from 'node:path';

export * from 'node:fs';
export default fs;

export function globSync(pattern, opts = {}) {
  const cwd = opts.cwd ?? process.cwd();
  const m = /^\*\*\/([^*/]+)$/.exec(pattern);
  if (!m) throw new Error(`fs-shim: unsupported glob ${pattern}`);
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === m[1]) out.push(relative(cwd, p));
    }
  };
  if (fs.existsSync(cwd)) walk(cwd);
  return out;
}
