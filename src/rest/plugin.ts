// The REST/text face as a plugin of the shared host: generated op routes (drops, cached results
// and blobs included, by their declared replies), reference pages and the KB pages.
import type { AnyOperation, Core } from '../core/ops/types.js';
import { face } from '../http/plugin.js';
import { registerClients } from './clients.js';
import { registerErrsig } from './errsig.js';
import { registerKbPages } from './kb.js';
import { registerOpRoutes } from './ops.js';
import { registerPages } from './pages.js';
import { registerGovPages } from './gov.js';

export const restFace = face<{ core: Core; ops: readonly AnyOperation[] }>('rest', async (app, { core, ops }) => {
  registerOpRoutes(app, core, ops);
  registerPages(app, core, ops);
  registerKbPages(app, core);
  registerErrsig(app);
  registerClients(app, core);
  registerGovPages(app, core);
});
