// Space slugs: `s:<slug>` names a space; the slug alone appears in paths. A shared name rule (tasks,
// KB entries, topics and feeds name spaces by it), so it sits in the platform.
import { limit } from '../kernel/limits.js';

export const SLUG_RE = new RegExp(`^[a-z0-9][a-z0-9-]{1,${limit('space.slug') - 1}}$`);
