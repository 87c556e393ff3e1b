// The workspace operations (notes, checkpoints, anchors, cached results, blobs, mail), gathered for the registry.
import { anchorOps } from '../anchors/ops.js';
import { blobOps } from '../blobs/ops.js';
import { cacheOps } from '../cache/ops.js';
import { checkpointOps } from '../checkpoints/ops.js';
import { mailOps } from '../mail/ops.js';
import { noteOps } from '../notes/ops.js';
import type { AnyOperation } from '../kernel/types.js';

export const workspaceOps: readonly AnyOperation[] = [...noteOps, ...checkpointOps, ...anchorOps, ...cacheOps, ...blobOps, ...mailOps];
