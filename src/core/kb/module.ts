import type { Module } from '../kernel/module.js';
import { kbOps } from './ops.js';
import { kbExportViews } from './exports.js';
import { kbActivity, kbFeeds } from './feeds.js';
import { resignKb } from './resign.js';
import { loadSeedIfEmpty } from './seed.js';
import { spaceKbOps } from './space/ops.js';
import { resignSpaceKb } from './space/resign.js';
import { startWantedSweep } from './wanted-sweep.js';

export const kbModule: Module = {
  name: 'kb',
  ops: kbOps,
  toolsets: [{ name: 'kb', about: 'fix knowledge base and library digests' }],
  feeds: kbFeeds,
  activity: kbActivity,
  exportViews: kbExportViews,
  async init(core) {
    // Entries written under an earlier ErrSig version answer to current signatures (their old hashes stay).
    const resigned = await resignKb(core.store.kb);
    if (resigned) core.log.info({ entries: resigned }, 'KB entries re-signed with the current ErrSig version');
    const seeded = core.config.seed ? await loadSeedIfEmpty(core) : 0;
    if (seeded) core.log.info({ entries: seeded }, 'sample KB data loaded');
  },
  start: (core) => startWantedSweep(core),
};

/** The private KB of closed spaces (export, promote, purge), listed with the spaces' operations. */
export const spaceKbModule: Module = {
  name: 'kb',
  ops: spaceKbOps,
  async init(core) {
    const n = await resignSpaceKb(core.store.spaceKb);
    if (n) core.log.info({ entries: n }, 'private space entries re-signed with the current ErrSig version');
  },
};
