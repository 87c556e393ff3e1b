// The REST/text face as a plugin of the shared host: generated op routes (drops, cached results
// and blobs included, by their declared replies), the KB lane in front of two of them, and the raw
// routes this face declares (REST_RAW_ROUTES, src/rest/raw-routes.ts): reference pages, the KB
// pages (and the /kb/ index), client files, feeds, exports, the git mirror, /st, /notice,
// /sitemap.xml and /robots.txt, and POST /in/{id}.
import type { AnyOperation, Core } from '../core/kernel/types.js';
import { clientIp } from '../http/front.js';
import { face } from '../http/plugin.js';
import { bindRaw } from '../http/raw.js';
import { kbLane } from './kb-lane.js';
import { registerOpRoutes } from './ops.js';
import { REST_RAW_ROUTES } from './raw-routes.js';

export const restFace = face<{ core: Core; ops: readonly AnyOperation[] }>('rest', async (app, { core, ops }) => {
  registerOpRoutes(app, core, ops);
  app.front.add(kbLane(core, { ip: clientIp(core.config.trustProxy), admit: (req) => app.front.admit(req) }));
  for (const group of REST_RAW_ROUTES) bindRaw(app, group, { core, ops });
});
