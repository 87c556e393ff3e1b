import type { Module } from '../kernel/module.js';
import { docsFeeds } from './feeds.js';

// No operations: the documents are served by the faces' pages; the module contributes the changelog's feed.
export const docsModule: Module = { name: 'docs', ops: [], feeds: docsFeeds };
