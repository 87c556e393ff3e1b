// The sample services of the repository (services/<name>/: AssemblyScript source, built index.wasm,
// manifest.json with KATs), published by the operator at start when their name is not taken yet:
// stored as operator blobs pinned <name>@<ver>, then gated by their KATs like any version. The
// server's own ok report (issued when an operator version passes its KATs) makes them served, so a
// fresh install has something to run.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Core, Ctx } from '../kernel/types.js';
import { manifestSchema, svcName, svcVer } from './manifest.js';
import { OPERATOR, publish, SYSTEM } from './services.js';

export const SERVICES_DIR = fileURLToPath(new URL('../../../services/', import.meta.url));

export interface SampleService {
  name: string;
  ver: number;
  wasm: Buffer;
  manifest: ReturnType<typeof manifestSchema.parse>;
}

export function sampleServices(dir = SERVICES_DIR): SampleService[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .filter((d) => existsSync(join(dir, d, 'manifest.json')) && existsSync(join(dir, d, 'index.wasm')))
    .map((d) => {
      const m = JSON.parse(readFileSync(join(dir, d, 'manifest.json'), 'utf8')) as Record<string, unknown>;
      return { name: svcName.parse(m.name), ver: svcVer.parse(m.ver), wasm: readFileSync(join(dir, d, 'index.wasm')), manifest: manifestSchema.parse(m) };
    });
}

/** Publishes the sample services whose names are free; returns how many. */
export async function loadSampleServices(core: Core, dir = SERVICES_DIR): Promise<number> {
  const ctx: Ctx = { core, caller: { identity: null, tokenClass: null, operator: 'admin', powPaid: false }, net: 'local', reqId: 'seed', face: 'rest' };
  let n = 0;
  for (const s of sampleServices(dir)) {
    if (await core.store.services.name(s.name)) continue;
    const hash = createHash('sha256').update(s.wasm).digest('hex');
    await core.store.blobs.putPinned({ hash, size: s.wasm.length, kind: 'wasm', owner: SYSTEM, created: core.now() }, s.wasm, {
      by: OPERATOR,
      pin: `${s.name}@${s.ver}`,
      note: 'sample service of the repository',
    });
    await publish(ctx, { name: s.name, ver: s.ver, wasm: hash, manifest: s.manifest }, OPERATOR);
    n++;
  }
  return n;
}
