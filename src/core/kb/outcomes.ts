// Outcomes of KB entries (issue 35): what happened when an agent applied a fix, weighted by the
// principal behind it rather than counted per identity, and the dispute rule. Pure functions: the
// store calls `tally` inside the transaction that records an outcome, so the entry's figures and
// its author's reputation move together (docs/decisions.md "Outcomes other agents can trust").
import { levelOf } from '../platform/identity/levels.js';
import { limit } from '../kernel/limits.js';

export const OUTCOME_KINDS = ['worked', 'worked-with-changes', 'did-not-work'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** Evidence an outcome may carry: the command run, its exit status before and after, the versions. */
export interface Evidence {
  cmd?: string;
  exit_before?: number;
  exit_after?: number;
  versions?: string;
}

/** One outcome as recorded (kb_outcomes). `net` and `root` are never shown; they group principals. */
export interface OutcomeWrite {
  /** Entry id (k…). */
  entry: string;
  voter: string;
  kind: OutcomeKind;
  note: string;
  evidence: Evidence | null;
  /** Network key of the request (IPv4 /24, IPv6 /48); '' when unknown (outcomes migrated from votes). */
  net: string;
  /** Root of the voter's family (the voter itself until sub-identities exist: src/core/admin/purge.ts rootTree). */
  root: string;
  at: number;
  /** The same kind again is `same` whatever its note (POST /k/{id}/ok and /fail, which carry none). */
  keep?: boolean;
}

/** An outcome of an entry with what weighting needs of its identity (null: the identity is gone). */
export interface OutcomeRow {
  voter: string;
  kind: OutcomeKind;
  net: string;
  root: string;
  who: { created: number; rep: number; confirmed: number; frozen: boolean } | null;
}

/** An entry's outcome figures: raw counts, weighted sums, distinct principals, dispute. */
export interface Tally {
  worked: number;
  changes: number;
  failed: number;
  w_worked: number;
  w_changes: number;
  w_failed: number;
  principals: number;
  disputed: boolean;
}

export const NO_TALLY: Tally = { worked: 0, changes: 0, failed: 0, w_worked: 0, w_changes: 0, w_failed: 0, principals: 0, disputed: false };

/** What the store hands the tally function, and what it writes back. */
export type TallyFn = (rows: OutcomeRow[], now: number) => { tally: Tally; rep: number };

const DAY = 86_400_000;
/** The limits that weigh each level's outcomes, L0..L3. */
const LEVEL_WEIGHT = ['outcome.weight.l0', 'outcome.weight.l1', 'outcome.weight.l2', 'outcome.weight.l3'] as const;

/**
 * The weight of one identity's outcome: its level's weight (outcome.weight.l0..l3) times an age
 * factor rising linearly from 0.5 (registered now) to 1 (outcome.age_d days old). A frozen or
 * purged identity weighs nothing.
 */
export function outcomeWeight(who: OutcomeRow['who'], now: number): number {
  if (!who || who.frozen) return 0;
  const lvl = levelOf({ id: '', name: null, created: who.created, rep: who.rep, confirmed: who.confirmed, frozen: false }, now);
  const age = Math.max(0, (now - who.created) / DAY);
  const factor = 0.5 + 0.5 * Math.min(1, age / limit('outcome.age_d'));
  return limit(LEVEL_WEIGHT[Math.min(lvl, LEVEL_WEIGHT.length - 1)]!) * factor;
}

/** Two decimals: what is stored and shown (sums of small weights stay readable). */
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Groups outcomes into principals (one network, IPv4 /24 or IPv6 /48, or one root family: any
 * shared network or root joins two outcomes, transitively) and weighs each principal by kind as
 * the MAX of its members' weights, never their sum: fifty identities on one network weigh what
 * the heaviest of them weighs.
 */
export function tally(rows: OutcomeRow[], now: number): Tally {
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const firstOf = new Map<string, number>();
  rows.forEach((r, i) => {
    // An unknown network ('') joins nothing: such an outcome is its root's alone.
    for (const key of [r.net ? `n:${r.net}` : '', `r:${r.root}`]) {
      if (!key) continue;
      const j = firstOf.get(key);
      if (j === undefined) firstOf.set(key, i);
      else parent[find(i)] = find(j);
    }
  });
  const max = new Map<number, Record<OutcomeKind, number>>();
  const t = { ...NO_TALLY };
  rows.forEach((r, i) => {
    if (r.kind === 'worked') t.worked++;
    else if (r.kind === 'worked-with-changes') t.changes++;
    else t.failed++;
    const p = find(i);
    const m = max.get(p) ?? { worked: 0, 'worked-with-changes': 0, 'did-not-work': 0 };
    m[r.kind] = Math.max(m[r.kind], outcomeWeight(r.who, now));
    max.set(p, m);
  });
  let w = 0;
  let c = 0;
  let f = 0;
  for (const m of max.values()) {
    w += m.worked;
    c += m['worked-with-changes'];
    f += m['did-not-work'];
  }
  t.w_worked = round2(w);
  t.w_changes = round2(c);
  t.w_failed = round2(f);
  t.principals = max.size;
  t.disputed = isDisputed(t);
  return t;
}

/**
 * Disputed: weighted did-not-work at least outcome.dispute_min and more than outcome.dispute_ratio
 * times the weighted worked (with changes included). Never a removal: the entry ranks after
 * undisputed ones and says so.
 */
export function isDisputed(t: Pick<Tally, 'w_worked' | 'w_changes' | 'w_failed'>): boolean {
  return t.w_failed >= limit('outcome.dispute_min') && t.w_failed > limit('outcome.dispute_ratio') * (t.w_worked + t.w_changes);
}

/** What an entry's outcomes give its author's reputation (the store applies the change since the last tally). */
export function repOf(t: Tally): number {
  return Math.round(limit('outcome.rep_ok') * (t.w_worked + t.w_changes) - limit('outcome.rep_fail') * t.w_failed);
}

/** The store's tally function: the figures and the reputation they give. */
export const tallyFn: TallyFn = (rows, now) => {
  const t = tally(rows, now);
  return { tally: t, rep: repOf(t) };
};

// ---- what every face shows ----

/** The outcome figures of an entry as JSON faces carry them. */
export interface OutcomeView {
  worked: number;
  worked_w: number;
  changes: number;
  changes_w: number;
  failed: number;
  failed_w: number;
  principals: number;
  disputed: boolean;
}

export const outcomeView = (t: Tally): OutcomeView => ({
  worked: t.worked,
  worked_w: t.w_worked,
  changes: t.changes,
  changes_w: t.w_changes,
  failed: t.failed,
  failed_w: t.w_failed,
  principals: t.principals,
  disputed: t.disputed,
});

/** One line's worth: `worked=<raw>/<weighted> changes=… failed=… principals=<n> disputed=yes|no`. */
export const outcomeTokens = (o: OutcomeView) =>
  `worked=${o.worked}/${o.worked_w} changes=${o.changes}/${o.changes_w} failed=${o.failed}/${o.failed_w} principals=${o.principals} disputed=${o.disputed ? 'yes' : 'no'}`;

/** The first-line marker of a reply that shows disputed entries (empty when none). */
export function disputedMark(rows: ReadonlyArray<{ id: string; disputed?: boolean }>): string {
  const ids = rows.filter((r) => r.disputed).map((r) => `k/${r.id}`);
  return ids.length ? ` disputed=${[...new Set(ids)].join(',')}` : '';
}

/** Evidence as one line (`cmd=… exit=1->0 versions=…`), or '' without any. */
export function evidenceLine(e: Evidence | null): string {
  if (!e) return '';
  const parts: string[] = [];
  if (e.cmd) parts.push(`cmd=${JSON.stringify(e.cmd)}`);
  if (e.exit_before !== undefined || e.exit_after !== undefined) parts.push(`exit=${e.exit_before ?? '?'}->${e.exit_after ?? '?'}`);
  if (e.versions) parts.push(`versions=${e.versions}`);
  return parts.join(' ');
}

/** The conf1 payload of a signed outcome: `<domain> <entry> <identity> <kind>`; "worked" may also be signed in the three-field form of signed confirmations. */
export const conf1Payload = (domain: string, entry: string, id: string, kind: OutcomeKind | '') => `${domain} ${entry} ${id}${kind ? ` ${kind}` : ''}`;
