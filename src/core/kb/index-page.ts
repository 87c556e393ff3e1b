// What /kb/ lists: the latest months that hold fixes, the ecosystems with their counts and the
// error classes of the newest fixes. Read through the KB port (months by neighbour lookups, one
// count per ecosystem, classes from the newest entries), so every store adapter serves it as is.
import type { Core } from '../kernel/types.js';
import { CLASS_RE } from './classify.js';
import { ECOS } from './ops.js';

export interface KbIndex {
  entries: number;
  /** YYYY-MM, newest first. */
  months: string[];
  ecos: Array<{ eco: string; count: number }>;
  /** Error classes among the newest `sample` fixes, most frequent first. */
  classes: Array<{ class: string; n: number }>;
  sample: number;
}

const MONTHS = 12;
const SAMPLE = 500;
const CLASSES = 30;
const ym = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const monthStart = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1);

export async function readKbIndex(core: Core): Promise<KbIndex> {
  const kb = core.store.kb;
  const months: string[] = [];
  // The month after this one, then each month before the last one found that holds entries.
  const now = new Date(core.now());
  let cursor = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  while (months.length < MONTHS) {
    const { prev } = await kb.monthNeighbours(cursor, cursor);
    if (prev === null) break;
    months.push(ym(prev));
    cursor = monthStart(prev);
  }
  const ecos = [];
  for (const eco of ECOS) {
    const { count } = await kb.byEco(eco, 1);
    if (count) ecos.push({ eco, count });
  }
  const newest = await kb.recent({}, 0, SAMPLE);
  const byClass = new Map<string, number>();
  for (const e of newest) {
    const c = e.cls.toLowerCase();
    if (CLASS_RE.test(c)) byClass.set(c, (byClass.get(c) ?? 0) + 1);
  }
  const classes = [...byClass]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, CLASSES)
    .map(([c, n]) => ({ class: c, n }));
  return { entries: await kb.count(), months, ecos, classes, sample: newest.length };
}

export function kbIndexText(o: KbIndex): string {
  return [
    `kb entries=${o.entries} months=${o.months.length} ecos=${o.ecos.length} classes=${o.classes.length}`,
    ...o.months.map((m) => `month ${m} GET /kb/${m}/`),
    ...o.ecos.map((e) => `eco ${e.eco} fixes=${e.count} GET /eco/${e.eco}`),
    ...o.classes.map((c) => `class ${c.class} n=${c.n} GET /err/${c.class}`),
    'next: POST /e with the whole error output; GET /search?q=<words>',
  ].join('\n');
}
