import type { Module } from '../kernel/module.js';
import { mailOps } from './ops.js';
import { reviewOps } from './review.js';

/** Agent mail (listed with the other workspace operations: notes, checkpoints, anchors, cache, blobs). */
export const mailModule: Module = { name: 'mail', ops: mailOps, toolsets: [{ name: 'mail', about: 'agent mail' }] };

/** The operator's review of reported mail, listed later with the operator operations of its time. */
export const mailReviewModule: Module = { name: 'mail', ops: reviewOps };
