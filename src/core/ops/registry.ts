import { hostedAgentOps } from '../agents/ops.js';
import { dropOps } from '../drops/ops.js';
import { identityOps } from '../identity/ops.js';
import { kbOps } from '../kb/ops.js';
import { adminOps } from '../admin/ops.js';
import { reviewOps } from '../mail/review.js';
import { systemOps } from '../system/ops.js';
import { taskOps } from '../tasks/ops.js';
import { taskWatchOp } from '../tasks/watch.js';
import { ledgerOps } from '../ledger/ops.js';
import { spaceOps } from '../spaces/ops.js';
import { profileOps } from '../profiles/ops.js';
import { badgeOps } from '../badges/ops.js';
import { workspaceOps } from '../workspace/ops.js';
import { trustOps } from '../trust/ops.js';
import { swarmOps } from '../swarm/ops.js';
import { webhookOps } from '../webhooks/ops.js';
import { exportOps } from '../exports/ops.js';
import { proposalOps } from '../gov/ops.js';
import { noticeOps } from '../gov/notices.js';
import { govPageOps } from '../gov/pages.js';
import { computeOps } from '../compute/ops.js';
import { injOps } from '../inj/ops.js';
import type { AnyOperation } from './types.js';
import { useHintOps } from '../kernel/hints.js';
// The operation registry: every capability, enumerable by the faces.

export const OPS: readonly AnyOperation[] = [
  ...identityOps,
  ...kbOps,
  ...systemOps,
  ...adminOps,
  ...dropOps,
  ...hostedAgentOps,
  ...taskOps,
  taskWatchOp,
  ...ledgerOps,
  ...spaceOps,
  ...profileOps,
  ...badgeOps,
  ...workspaceOps,
  ...trustOps,
  ...swarmOps,
  ...webhookOps,
  ...exportOps,
  ...reviewOps,
  ...proposalOps,
  ...noticeOps,
  ...govPageOps,
  ...computeOps,
  ...injOps,
];

// Next steps are worded from this table (kernel/hints.ts): REST routes where no face says otherwise.
useHintOps(OPS);

const byName = new Map(OPS.map((o) => [o.name, o]));
if (byName.size !== OPS.length) throw new Error('duplicate operation name');

export function opByName(name: string): AnyOperation | undefined {
  return byName.get(name);
}
