// Builds the sample services (services/<name>/index.ts → index.wasm) and the runner's hostile test
// fixtures (test/wasm/fixtures/<name>.ts → <name>.wasm) from AssemblyScript with @extism/as-pdk.
// The built .wasm files are committed, so a fresh install needs no build; run this after editing a
// source (npm run build:wasm). asc runs in each file's folder so `--use abort=<file>/abort` resolves.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const asc = join(dirname(createRequire(import.meta.url).resolve('assemblyscript/package.json')), 'bin', 'asc.js');

function build(dir, file, extra) {
  const name = file.replace(/\.ts$/, '');
  const args = [asc, file, '--outFile', `${name}.wasm`, '--use', `abort=${name}/abort`, '--optimize', '--runtime', 'incremental', ...extra];
  execFileSync(process.execPath, args, { cwd: dir, stdio: 'inherit' });
  console.log(`built ${join(dir, name)}.wasm`.replace(root + '/', ''));
}

// Services declare a memory maximum of 256 pages (16 MiB); the runner clamps to the call's cap anyway.
for (const svc of readdirSync(join(root, 'services'))) {
  const dir = join(root, 'services', svc);
  if (existsSync(join(dir, 'index.ts'))) build(dir, 'index.ts', ['--maximumMemory', '256']);
}
// Fixtures declare no maximum on purpose: the runner's clamp is what caps them.
const fx = join(root, 'test', 'wasm', 'fixtures');
for (const f of readdirSync(fx).filter((f) => f.endsWith('.ts'))) build(fx, f, []);
