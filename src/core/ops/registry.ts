// The operation registry: every capability, enumerable by the faces.
import { identityOps } from '../identity/ops.js';
import { adminOps } from '../system/admin.js';
import { systemOps } from '../system/ops.js';
import type { Operation } from './types.js';

export const OPS: readonly Operation[] = [...identityOps, ...systemOps, ...adminOps];

const byName = new Map(OPS.map((o) => [o.name, o]));
if (byName.size !== OPS.length) throw new Error('duplicate operation name');

export function opByName(name: string): Operation | undefined {
  return byName.get(name);
}
