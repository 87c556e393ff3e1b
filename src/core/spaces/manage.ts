// space.manage: the one agent-facing operation for the acts on a closed space and its private KB
// (issue 39). Invite, remove, export, promote and purge keep their own REST routes; as five MCP tools
// they cost about 300 tokens of the tool list's 8,000 (docs/decisions.md). Each act runs the
// operation itself through invoke as the same caller (src/core/kernel/via.ts). Invite and remove are
// the owners' acts of spaces (owners.ts); export, promote and purge are the KB's (src/core/kb/space),
// which spaces does not import: the composition root hands them over (spaceManageModule).
import { z } from 'zod';
import type { AnyOperation } from '../kernel/types.js';
import { viaOp } from '../kernel/via.js';
import { spaceOwnerOps } from './owners.js';

/** space.manage over the owners' acts and `kbActs`, the KB's acts on a space (export, promote, purge). */
export const spaceManageOp = (kbActs: readonly AnyOperation[]) =>
  viaOp({
    name: 'space.manage',
    title: 'Manage a closed space',
    summary:
      'Act on a closed space and its private KB: invite, remove, promote, purge (owners) or export (members). Each act is the operation of its REST route, with its fields and checks: invite (role, ttl), remove (member), export, promote (id), purge (confirm=s:<slug>).',
    auth: 'token',
    key: 'act',
    ops: [...spaceOwnerOps, ...kbActs],
    fields: {
      slug: z.string(),
      role: z.enum(['member', 'owner']).optional(),
      ttl: z.number().int().min(60).optional().describe('invite: seconds'),
      member: z.string().optional().describe('remove: identity id'),
      id: z.string().optional().describe('promote: private entry id'),
      confirm: z.string().optional().describe('purge: s:<slug> again'),
    },
  });
