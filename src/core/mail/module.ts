import type { Module } from '../kernel/module.js';
import { reviewOps } from './review.js';

/** Mail's own operations are workspace routes (src/core/workspace); review requests are its here. */
export const mailModule: Module = { name: 'mail', ops: reviewOps };
