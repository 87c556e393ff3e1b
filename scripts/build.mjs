// Compiles src/ to JavaScript (tsc) and copies beside it what the code reads at run time
// (migrations, ErrSig files, sample fixes, cards, the product catalog). The service runs the
// output with plain node: no TypeScript loader thread, ~40 MB less memory, a faster start.
// Usage: node scripts/build.mjs [outDir]   (default dist)
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const out = process.argv[2] ?? 'dist';
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out], { stdio: 'inherit' });
cpSync('src', join(out, 'src'), { recursive: true, filter: (p) => statSync(p).isDirectory() || !/\.ts$/.test(p) });
for (const dir of ['cards', 'catalog', 'services']) cpSync(dir, join(out, dir), { recursive: true });
// /changelog reads the project's CHANGELOG.md (src/core/docs/content/changelog.ts).
cpSync('CHANGELOG.md', join(out, 'CHANGELOG.md'));
