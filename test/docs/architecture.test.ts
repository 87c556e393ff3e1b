// docs/architecture.md's route → operation → port table is generated from the registry: it cannot go stale.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPS } from '../../src/compose/registry.js';
import { DOC, regenerated } from '../../scripts/architecture.js';

describe('docs/architecture.md', () => {
  const doc = readFileSync(DOC, 'utf8');
  it('its generated tables match the registry (run `npm run docs:arch` after adding an operation)', () => {
    expect(doc).toBe(regenerated(doc));
  });
  it('names every operation and every REST route', () => {
    for (const op of OPS) {
      expect(doc).toContain(`\`${op.name}\``);
      if (op.rest) expect(doc).toContain(`\`${op.rest.method} ${op.rest.path}\``);
    }
  });
});
