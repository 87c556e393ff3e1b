// The REST/text face as a plugin of the shared host: generated op routes (drops, cached results
// and blobs included, by their declared replies), and the raw routes this face declares
// (RAW_ROUTES, src/rest/raw-routes.ts): reference pages, the KB pages (and the /kb/ index), feeds,
// exports, the git mirror, /st, /notice, /sitemap.xml and /robots.txt, and POST /in/{id}.
import type { AnyOperation, Core } from '../core/kernel/types.js';
import { face } from '../http/plugin.js';
import { bindRaw } from '../http/raw.js';
import { registerClients } from './clients.js';
import { registerErrsig } from './errsig.js';
import { kbLane } from './kb-lane.js';
import { clientIp } from '../http/front.js';
import { registerOpRoutes } from './ops.js';
import { registerPages } from './pages.js';
import { registerCrawlPages } from './crawl.js';
import { REST_RAW_ROUTES } from './raw-routes.js';

export const restFace = face<{ core: Core; ops: readonly AnyOperation[] }>('rest', async (app, { core, ops }) => {
  registerOpRoutes(app, core, ops);
  app.front.add(kbLane(core, { ip: clientIp(core.config.trustProxy), admit: (req) => app.front.admit(req) }));
  registerPages(app, core, ops);
  registerErrsig(app);
  registerClients(app, core);
  for (const group of REST_RAW_ROUTES) bindRaw(app, group, { core, ops });
  registerCrawlPages(app, core);
});
