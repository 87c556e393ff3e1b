// Runs every port contract (test/contract/<port>.contract.ts, each exporting `contract(adapter)`)
// against every adapter of adapters.ts.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { ADAPTERS, type Adapter } from './adapters.js';

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here).filter((f) => f.endsWith('.contract.ts')).sort();
const suites = await Promise.all(files.map(async (f) => ({ port: f.replace(/\.contract\.ts$/, ''), mod: (await import(/* @vite-ignore */ `./${f}`)) as { contract(a: Adapter): void } })));

for (const adapter of ADAPTERS) {
  describe(adapter.name, () => {
    for (const s of suites) describe(s.port, () => s.mod.contract(adapter));
  });
}
