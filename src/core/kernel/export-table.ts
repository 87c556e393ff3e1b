// A public table of the open-data exports (src/core/exports): the domain that owns the rows says how
// they are paged and shown (Module.exportTables); the exports name the shards, page through them,
// screen the text and count what was withheld, without importing any of those domains.
import type { Core } from './types.js';

export interface ExportTable<R = unknown> {
  /**
   * The rows after `after` (the last row of the previous page; null: from the start) in a stable
   * order, changed at or after `since` (ms; 0: all), at most `limit`: only what the public reads show.
   */
  page(core: Core, after: R | null, since: number, limit: number): Promise<R[]>;
  /** The texts screened with the scrubber on the way out (a row with a secret found is withheld); absent: not screened. */
  texts?(row: R): Array<string | null | undefined>;
  /** The row as the public reads show it. */
  view(core: Core, row: R): object;
}
