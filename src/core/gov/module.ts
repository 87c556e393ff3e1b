import type { Module } from '../kernel/module.js';
import { govFeeds } from './feeds.js';
import { noticeOps } from './notices.js';
import { proposalOps } from './ops.js';
import { govPageOps } from './pages.js';

export const govModule: Module = {
  name: 'gov',
  ops: [...proposalOps, ...noticeOps, ...govPageOps],
  toolsets: [
    { name: 'gov', about: 'proposals, support, governance rules, status pages and the injection-report map', prefixes: ['gov', 'st'] },
    { name: 'sys', prefixes: ['sys'] },
  ],
  feeds: govFeeds,
};
