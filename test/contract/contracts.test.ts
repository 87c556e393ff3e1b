// Runs every port contract (test/contract/<port>.contract.ts, each exporting `contract(adapter)`)
// against every adapter of adapters.ts. An adapter that lists its ports (PostgreSQL, issue 23 in
// progress) runs the contracts of those ports; the ports it lacks are named, and checked, by
// coverage.test.ts (its adapter cannot open a store without them). `kb-sig` is a contract of `kb`.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { ADAPTERS, type Adapter } from './adapters.js';

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.contract.ts'))
  .sort();
const suites = await Promise.all(
  files.map(async (f) => ({ port: f.replace(/\.contract\.ts$/, ''), mod: (await import(/* @vite-ignore */ `./${f}`)) as { contract(a: Adapter): void } })),
);

for (const adapter of ADAPTERS) {
  describe(adapter.name, () => {
    for (const s of suites) {
      const port = s.port.replace(/-.*$/, '');
      if (adapter.ports && !adapter.ports.includes(port)) continue;
      describe(s.port, () => s.mod.contract(adapter));
    }
  });
}
