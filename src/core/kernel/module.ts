// A module: one domain (or platform service) as the composition root sees it. Adding a domain is its
// own folder with a module.ts, and one line in src/compose/modules.ts.
import type { BusEvent, TopicSelector } from './bus.js';
import type { ExportView } from './export-view.js';
import type { FeedItem, FeedQuery, FeedSource } from './feed.js';
import type { AnyOperation, Core } from './types.js';

/** Stops what `start` began; awaited at close. */
export type Stop = () => void | Promise<void>;

/**
 * A module's share of one MCP toolset (`?toolsets=<name>`): the MCP face lists the toolsets the
 * modules declare (src/compose/toolsets.ts). One module names a toolset's `about`; others may add
 * their operations to it.
 */
export interface ToolsetPart {
  name: string;
  /** The toolset's one line (server card): given by exactly one module, the one the toolset is named for. */
  about?: string;
  /** Which of the module's agent-facing operations belong, by name prefix (`note` holds `note.*`); all the rest when absent. */
  prefixes?: readonly string[];
}

/**
 * Events a module follows (a topic contract of src/core/platform/events/topics.ts, whoever writes
 * it): the composition root listens for it before the module's `start` and stops listening at its
 * stop. Live events after commit only: the module's own sweep reconciles what was written while
 * it was not listening.
 */
export interface Subscribes {
  topics: TopicSelector;
  /** Acts on one committed event. */
  on(core: Core, e: BusEvent): Promise<void>;
  /** What a failure means, for the warning logged as `<module>: <failed>`. */
  failed: string;
}

/** A module's share of an identity's activity feed (/f/a/<id>): its items of that identity, newest first. */
export type ActivityShare = (core: Core, id: string, q: FeedQuery) => Promise<FeedItem[]>;

/**
 * What the modules contribute to the readers that serve many domains' data (feeds, exports),
 * gathered by the composition root in module order (src/compose/contributions.ts): the readers take
 * it from the core, so they import none of the domains that fill it.
 */
export interface Contributions {
  /** Every feed source by name (/f/<name>[/<arg>]): the modules' and the feeds domain's own. */
  feeds: Readonly<Record<string, FeedSource>>;
  /** The shares of an identity's activity feed, in module order. */
  activity: readonly ActivityShare[];
  /** How the exports show each table's rows, by shard name. */
  exportViews: Readonly<Record<string, ExportView>>;
}

export interface Module {
  /** The folder's name, for logs and the architecture document. */
  name: string;
  /** Its operations, in the order the faces list them. */
  ops: readonly AnyOperation[];
  /**
   * The MCP toolsets its agent-facing operations are mounted under; a module with such operations
   * and no toolset for one of them stops the server at start (test/mcp/toolset-modules.test.ts).
   */
  toolsets?: readonly ToolsetPart[];
  /** The events it acts on, wired by the composition root (src/compose/lifecycle.ts). */
  subscribes?: readonly Subscribes[];
  /** Its public lists as feeds (/f/<name>), by name; src/core/feeds serves them. */
  feeds?: Readonly<Record<string, FeedSource>>;
  /** Its share of an identity's activity feed (/f/a/<id>), merged with the other modules' shares. */
  activity?: ActivityShare;
  /** How its public tables' rows are screened and shown in the open-data exports, by the shard name src/core/exports gives them. */
  exportViews?: Readonly<Record<string, ExportView>>;
  /** Start-up work before the listener opens (re-signing, sample data); modules run it in list order. */
  init?(core: Core): Promise<void>;
  /** Background work (sweeps, job workers, deliveries), started after every init, stopped at close in reverse list order. */
  start?(core: Core): Stop;
}
