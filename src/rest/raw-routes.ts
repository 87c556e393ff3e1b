// The REST face's raw routes (src/http/raw.ts), in registration order: every route of this face
// that is not generated from an operation is declared in one of these tables.
import type { RawGroup } from '../http/raw.js';
import { clientRoutes } from './clients.js';
import type { RestEnv } from './env.js';
import { crawlRoutes } from './crawl.js';
import { errsigRoutes } from './errsig.js';
import { exportRoutes } from './exports.js';
import { feedRoutes } from './feeds.js';
import { gitRoutes } from './git.js';
import { govRoutes } from './gov.js';
import { kbPageRoutes } from './kb.js';
import { pageRoutes } from './pages.js';
import { webhookRoutes } from './webhooks.js';

export const REST_RAW_ROUTES: readonly RawGroup<string, RestEnv>[] = [
  pageRoutes,
  kbPageRoutes,
  errsigRoutes,
  clientRoutes,
  webhookRoutes,
  feedRoutes,
  exportRoutes,
  gitRoutes,
  govRoutes,
  crawlRoutes,
];
