// The REST/text face as a plugin of the shared host: generated op routes, the hand-written
// adapters, reference pages and the KB pages.
import type { AnyOperation, Core } from '../core/ops/types.js';
import { face } from '../http/plugin.js';
import { registerBlobRoutes } from './blobs.js';
import { registerCacheRoutes } from './cache.js';
import { registerDropRoutes } from './drops.js';
import { registerErrsig } from './errsig.js';
import { registerKbPages } from './kb.js';
import { registerOpRoutes } from './ops.js';
import { registerPages } from './pages.js';

export const restFace = face<{ core: Core; ops: readonly AnyOperation[] }>('rest', async (app, { core, ops }) => {
  registerDropRoutes(app, core);
  registerCacheRoutes(app, core);
  registerBlobRoutes(app, core);
  registerOpRoutes(app, core, ops);
  registerPages(app, core, ops);
  registerKbPages(app, core);
  registerErrsig(app);
});
