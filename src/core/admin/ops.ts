// The operator operations of the admin domain (spec 4.7). Each declares its token class in `auth`;
// /help and the generated route tables show it. Others live with their domains: credits and audit
// (ledger), bounty accept (tasks), key rotation and the online key (trust), the review queue (mail).
import type { AnyOperation } from '../kernel/types.js';
import { announceOp } from './announce.js';
import { asnOp } from './asn.js';
import { demandOp } from './demand.js';
import { freezeOp } from './freeze.js';
import { inboxOp } from './inbox.js';
import { seedRootOp, stHideOp } from './marks.js';
import { originOp } from './origin.js';
import { purgeOp } from './purge.js';
import { adminStatsOp } from './stats.js';

export const adminOps: AnyOperation[] = [adminStatsOp, announceOp, freezeOp, inboxOp, originOp, asnOp, purgeOp, seedRootOp, stHideOp, demandOp];
