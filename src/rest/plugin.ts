// The REST/text face as a plugin of the shared host: generated op routes (drops, cached results
// and blobs included, by their declared replies), reference pages, the KB pages (and the /kb/
// index), /st, /sitemap.xml and /robots.txt, and POST /in/{id}.
import type { AnyOperation, Core } from '../core/kernel/types.js';
import { face } from '../http/plugin.js';
import { registerClients } from './clients.js';
import { registerErrsig } from './errsig.js';
import { registerFeeds } from './feeds.js';
import { registerExports } from './exports.js';
import { registerGit } from './git.js';
import { registerKbPages } from './kb.js';
import { kbLane } from './kb-lane.js';
import { clientIp } from '../http/front.js';
import { registerOpRoutes } from './ops.js';
import { registerPages } from './pages.js';
import { registerWebhooks } from './webhooks.js';
import { registerGovPages } from './gov.js';
import { registerCrawlPages } from './crawl.js';

export const restFace = face<{ core: Core; ops: readonly AnyOperation[] }>('rest', async (app, { core, ops }) => {
  registerOpRoutes(app, core, ops);
  app.front.add(kbLane(core, { ip: clientIp(core.config.trustProxy), admit: (req) => app.front.admit(req) }));
  registerPages(app, core, ops);
  registerKbPages(app, core);
  registerErrsig(app);
  registerClients(app, core);
  registerWebhooks(app, core);
  registerFeeds(app, core);
  registerExports(app, core);
  registerGit(app, core);
  registerGovPages(app, core);
  registerCrawlPages(app, core);
});
