// Every repository of the Store has a contract suite (test/contract/<field>.contract.ts), so a port
// added to the Store without one fails here instead of reaching a second adapter untested.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { ADAPTERS, storeFor } from './adapters.js';

const here = dirname(fileURLToPath(import.meta.url));
const open = storeFor(ADAPTERS[0]!);

it('each Store field that is a port has a <field>.contract.ts', async () => {
  const s = await open();
  const ports = Object.entries(Object.getOwnPropertyDescriptors(s.store))
    .filter(([, d]) => d.value !== null && typeof d.value === 'object')
    .map(([k]) => k)
    .sort();
  const suites = new Set(readdirSync(here).filter((f) => f.endsWith('.contract.ts')).map((f) => f.replace(/\.contract\.ts$/, '')));
  expect(ports.length).toBeGreaterThan(10);
  expect(ports.filter((p) => !suites.has(p))).toEqual([]);
});
