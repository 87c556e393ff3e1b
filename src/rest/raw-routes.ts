// The REST face's raw routes (src/http/raw.ts), in registration order: every route of this face
// that is not generated from an operation is declared in one of these tables.
import { exportRoutes } from './exports.js';
import { feedRoutes } from './feeds.js';
import { gitRoutes } from './git.js';
import { govRoutes } from './gov.js';
import { kbPageRoutes } from './kb.js';
import { webhookRoutes } from './webhooks.js';

export const REST_RAW_ROUTES = [kbPageRoutes, webhookRoutes, feedRoutes, exportRoutes, gitRoutes, govRoutes] as const;
