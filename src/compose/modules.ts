// The module list: every domain and platform service the core is built from, in the order their
// operations are listed and their start-up work runs. Adding a domain: its folder with a module.ts,
// one line here (and a migration pair in src/store when it stores data).
import { adminModule } from '../core/admin/module.js';
import { agentsModule } from '../core/agents/module.js';
import { anchorsModule } from '../core/anchors/module.js';
import { badgesModule } from '../core/badges/module.js';
import { blobsModule } from '../core/blobs/module.js';
import { cacheModule } from '../core/cache/module.js';
import { checkpointsModule } from '../core/checkpoints/module.js';
import { computeModule } from '../core/compute/module.js';
import { docsModule } from '../core/docs/module.js';
import { dropsModule } from '../core/drops/module.js';
import { exportsModule } from '../core/exports/module.js';
import { govModule } from '../core/gov/module.js';
import { injModule } from '../core/inj/module.js';
import { kbModule, spaceKbModule } from '../core/kb/module.js';
import type { Module } from '../core/kernel/module.js';
import { mailModule, mailReviewModule } from '../core/mail/module.js';
import { notesModule } from '../core/notes/module.js';
import { eventsModule } from '../core/platform/events/module.js';
import { identityModule } from '../core/platform/identity/module.js';
import { ledgerModule } from '../core/platform/ledger/module.js';
import { trustModule } from '../core/platform/trust/module.js';
import { profilesModule } from '../core/profiles/module.js';
import { spaceManageModule, spacesModule } from '../core/spaces/module.js';
import { swarmModule } from '../core/swarm/module.js';
import { systemModule } from '../core/system/module.js';
import { tasksModule } from '../core/tasks/module.js';
import { webhooksModule } from '../core/webhooks/module.js';

export const MODULES: readonly Module[] = [
  identityModule,
  kbModule,
  systemModule,
  adminModule,
  dropsModule,
  agentsModule,
  tasksModule,
  ledgerModule,
  spacesModule,
  // A closed space's private KB is the KB's; space.manage (spaces) takes its acts from here.
  spaceKbModule,
  spaceManageModule(spaceKbModule.ops),
  profilesModule,
  badgesModule,
  // The workspace: notes, checkpoints, anchors, cached results, blobs, mail (one set of /w routes).
  notesModule,
  checkpointsModule,
  anchorsModule,
  cacheModule,
  blobsModule,
  mailModule,
  trustModule,
  swarmModule,
  webhooksModule,
  exportsModule,
  mailReviewModule,
  govModule,
  computeModule,
  injModule,
  eventsModule,
  docsModule,
];
