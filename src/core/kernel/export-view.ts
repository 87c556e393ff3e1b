// A public table of the open-data exports (src/core/exports): the exports page through the rows
// (their port leaves out hidden and tombstoned ones), screen the text and count what was withheld;
// the domain that owns the rows says which of their texts are screened and how a row is shown
// (Module.exportViews), so the exports import none of those domains.
import type { Core } from './types.js';

export interface ExportView<R = unknown> {
  /** The texts screened with the scrubber on the way out (a row with a secret found is withheld); absent: not screened. */
  texts?(row: R): Array<string | null | undefined>;
  /** The row as the public reads show it. */
  view(core: Core, row: R): object;
}
