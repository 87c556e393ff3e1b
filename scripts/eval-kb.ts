// Evaluation of POST /e against the labelled set in test/kb/eval/ (see its README.md): starts the
// real server on an ephemeral port with a temporary data directory and the seed loaded, sends every
// output to POST /e (JSON reply) and prints, per set and per ecosystem, how often the first answer
// is the right entry, how often a fix is given from a wrong entry, recall at 3, MRR, the 404 rate and
// the accuracy on one-line quotes.
//
//   npm run eval:kb -- [--set main|holdout|all] [--json] [--floors test/kb/eval/floors.json] [--verbose]
//
// A reply gives a fix when it is a 200 with entries and its `match` (top level, or the first entry's
// when entries carry one) is not `related` or `none`: a `related` answer names entries without
// claiming they fix the error. Candidates, for recall at 3 and MRR, are the entries the reply names
// in order (its `entries`, then its `related`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { leaks, privateValues, publicText } from './eval-kb-leaks.js';
import { ECOS, loadEvalSet, type EvalItem, type SetName } from './eval-kb-set.js';

interface Reply {
  status: number;
  given: boolean;
  /** Titles the reply names, best first. */
  candidates: string[];
  match: string | null;
}

interface Outcome {
  item: EvalItem;
  reply: Reply;
}

/** The figures of one group of outcomes, in percent (rounded to one decimal) and counts. */
export interface Figures {
  n: number;
  labelled: number;
  none: number;
  oneline: number;
  /** First answer's title is the expected one, a fix given (labelled items). */
  top1: number;
  /** A fix given from a wrong entry, any fix for a `none` item (all items). */
  confidentlyWrong: number;
  /** Of the labelled items, a fix given from a wrong entry. */
  wrongOnLabelled: number;
  /** Of the `none` items, any fix given. */
  wrongOnNone: number;
  /** The expected title among the first 3 candidates (labelled items). */
  recall3: number;
  /** Mean reciprocal rank of the expected title among the candidates (labelled items), 0..1. */
  mrr: number;
  /** Replies that were 404 (all items). */
  notFound: number;
  /** Top-1 accuracy of the one-line quotes. */
  onelineTop1: number;
  /** Top-1 accuracy of the whole outputs. */
  wholeTop1: number;
  /** Private values of the outputs a public surface showed after the lookups (the set as a whole; 0 on its parts). */
  leaks: number;
}

type Args = { set: 'main' | 'holdout' | 'all'; json: boolean; floors: string | null; verbose: boolean };

function parseArgs(argv: string[]): Args {
  const a: Args = { set: 'all', json: false, floors: null, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    if (k === '--set') {
      const v = argv[++i];
      if (v !== 'main' && v !== 'holdout' && v !== 'all') throw new Error('--set: main, holdout or all');
      a.set = v;
    } else if (k === '--json') a.json = true;
    else if (k === '--verbose') a.verbose = true;
    else if (k === '--floors') {
      const v = argv[++i];
      if (!v) throw new Error('--floors: a file');
      a.floors = v;
    } else throw new Error(`unknown argument ${k}; usage: eval-kb [--set main|holdout|all] [--json] [--floors <file>] [--verbose]`);
  }
  return a;
}

/** Reads a POST /e JSON reply: today {match: exact|coarse, entries, related}; later also match=near|related. */
export function readReply(status: number, body: unknown): Reply {
  if (status !== 200 || !body || typeof body !== 'object') return { status, given: false, candidates: [], match: null };
  const o = body as { match?: unknown; entries?: Array<{ title?: unknown; match?: unknown }>; related?: Array<{ title?: unknown }> };
  const entries = Array.isArray(o.entries) ? o.entries : [];
  const related = Array.isArray(o.related) ? o.related : [];
  const top = typeof o.match === 'string' ? o.match : typeof entries[0]?.match === 'string' ? (entries[0].match as string) : null;
  const noFix = top === 'related' || top === 'none';
  const candidates = [...entries, ...related].map((e) => (typeof e.title === 'string' ? e.title : '')).filter(Boolean);
  return { status, given: !noFix && entries.length > 0, candidates, match: top };
}

const pct = (k: number, n: number) => (n ? Math.round((1000 * k) / n) / 10 : 0);

export function figures(outs: Outcome[]): Figures {
  const lab = outs.filter((o) => o.item.expect !== null);
  const none = outs.filter((o) => o.item.expect === null);
  const one = lab.filter((o) => o.item.kind === 'oneline');
  const whole = lab.filter((o) => o.item.kind === 'whole');
  const right = (o: Outcome) => o.reply.given && o.reply.candidates[0] === o.item.expect;
  const wrong = (o: Outcome) => o.reply.given && o.reply.candidates[0] !== o.item.expect;
  const rank = (o: Outcome) => {
    const i = o.reply.candidates.indexOf(o.item.expect!);
    return i < 0 ? 0 : 1 / (i + 1);
  };
  return {
    n: outs.length,
    labelled: lab.length,
    none: none.length,
    oneline: one.length,
    top1: pct(lab.filter(right).length, lab.length),
    confidentlyWrong: pct(outs.filter(wrong).length, outs.length),
    wrongOnLabelled: pct(lab.filter(wrong).length, lab.length),
    wrongOnNone: pct(none.filter(wrong).length, none.length),
    recall3: pct(lab.filter((o) => o.reply.candidates.slice(0, 3).includes(o.item.expect!)).length, lab.length),
    mrr: lab.length ? Math.round((1000 * lab.reduce((s, o) => s + rank(o), 0)) / lab.length) / 1000 : 0,
    notFound: pct(outs.filter((o) => o.reply.status === 404).length, outs.length),
    onelineTop1: pct(one.filter(right).length, one.length),
    wholeTop1: pct(whole.filter(right).length, whole.length),
    leaks: 0,
  };
}

async function lookupAll(url: string, items: EvalItem[], concurrency = 4): Promise<Outcome[]> {
  const out: Outcome[] = new Array(items.length);
  let next = 0;
  async function worker() {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      const item = items[i]!;
      const res = await fetch(`${url}/e`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8', accept: 'application/json' },
        body: item.output,
      });
      const text = await res.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* a non-JSON reply counts as no answer */
      }
      if (res.status !== 200 && res.status !== 404) throw new Error(`${item.id}: POST /e answered ${res.status}: ${text.slice(0, 200)}`);
      out[i] = { item, reply: readReply(res.status, body) };
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

const COLS: Array<[keyof Figures, string]> = [
  ['n', 'n'],
  ['top1', 'top1%'],
  ['confidentlyWrong', 'cwrong%'],
  ['wrongOnLabelled', 'wrongLab%'],
  ['wrongOnNone', 'wrongNone%'],
  ['recall3', 'R@3%'],
  ['mrr', 'MRR'],
  ['notFound', '404%'],
  ['onelineTop1', '1line%'],
  ['wholeTop1', 'whole%'],
];

function table(title: string, rows: Array<[string, Figures]>): string {
  const head = ['', ...COLS.map(([, h]) => h)];
  // A figure over no items reads '-' (a kind's row has no one-line quotes, the none row no labelled items).
  const over: Partial<Record<keyof Figures, (f: Figures) => number>> = {
    top1: (f) => f.labelled,
    wrongOnLabelled: (f) => f.labelled,
    recall3: (f) => f.labelled,
    mrr: (f) => f.labelled,
    wrongOnNone: (f) => f.none,
    onelineTop1: (f) => f.oneline,
    wholeTop1: (f) => f.labelled - f.oneline,
  };
  const body = rows.map(([name, f]) => [name, ...COLS.map(([k]) => (over[k]?.(f) === 0 ? '-' : String(f[k])))]);
  const w = head.map((_, i) => Math.max(...[head, ...body].map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [title, fmt(head), ...body.map(fmt)].join('\n');
}

/** Floors: {"main": {"top1": 40, "confidentlyWrongMax": 30, ...}}: a key ending in Max is a ceiling. */
function checkFloors(file: string, summary: Record<string, { all: Figures }>): string[] {
  const floors = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, number>>;
  const bad: string[] = [];
  for (const [set, keys] of Object.entries(floors)) {
    if (set.startsWith('_')) continue;
    const f = summary[set]?.all;
    if (!f) continue;
    for (const [k, limit] of Object.entries(keys)) {
      const max = k.endsWith('Max');
      const key = (max ? k.slice(0, -3) : k) as keyof Figures;
      const v = f[key];
      if (typeof v !== 'number') {
        bad.push(`${set}.${k}: no such figure`);
        continue;
      }
      if (max ? v > limit : v < limit) bad.push(`${set}.${key} = ${v}, ${max ? 'above the ceiling' : 'below the floor'} ${limit}`);
    }
  }
  return bad;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sets: SetName[] = args.set === 'all' ? ['main', 'holdout'] : [args.set];
  const dir = mkdtempSync(join(tmpdir(), 'cx-eval-'));
  const config = loadConfig({
    CX_DATA: dir,
    PORT: '0',
    CATALOG_PORT: '0',
    HOST: '127.0.0.1',
    CX_BASE_URL: 'http://commons.test',
    CX_QUOTA_MULT: '100000',
    CX_SHED: '0',
    CX_LOG_LEVEL: 'warn',
    CX_GIT_MIRROR: '0',
  });
  const running = await startServer(config, { logger: false });
  const summary: Record<string, { all: Figures; byEco: Record<string, Figures>; byKind: Record<string, Figures> }> = {};
  const misses: string[] = [];
  const leaked: string[] = [];
  const checked: Record<string, { values: number; wanted: number }> = {};
  const surfaces = () => publicText(running.url, join(dir, 'export'), config.operatorTokens.ops, () => running.core.store.kb.wanted(1_000_000));
  try {
    // The public surfaces of the seed alone: what the lookups publish is what they add to these.
    const before = await surfaces();
    for (const set of sets) {
      const items = loadEvalSet(set);
      const outs = await lookupAll(running.url, items);
      const byEco: Record<string, Figures> = {};
      for (const eco of ECOS) {
        const o = outs.filter((x) => x.item.eco === eco);
        if (o.length) byEco[eco] = figures(o);
      }
      const byKind: Record<string, Figures> = {};
      for (const kind of ['whole', 'oneline', 'none']) byKind[kind] = figures(outs.filter((x) => x.item.kind === kind));
      summary[set] = { all: figures(outs), byEco, byKind };
      const values = new Set(items.flatMap((i) => privateValues(i.output)));
      const after = await surfaces();
      const found = leaks(before, after, values);
      summary[set].all.leaks = found.length;
      // The check is not vacuous: the lookups' misses were published as demand, and the values were many.
      checked[set] = { values: values.size, wanted: (JSON.parse(after.get('wanted rows') ?? '[]') as unknown[]).length };
      leaked.push(...found.map((f) => `${set} leak ${f}`));
      if (args.verbose) {
        for (const o of outs) {
          const got = o.reply.given ? o.reply.candidates[0] : o.reply.status === 404 ? '404' : `no fix (${o.reply.match})`;
          if (o.reply.given ? got !== o.item.expect : o.item.expect !== null)
            misses.push(`${set} ${o.item.id} [${o.item.kind} ${o.item.eco}] want ${o.item.expect ?? '(none)'} | got ${got}`);
        }
      }
    }
  } finally {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (args.json) console.log(JSON.stringify(summary, null, 2));
  else {
    for (const [set, s] of Object.entries(summary)) {
      console.log(table(`\n== ${set} ==`, [['all', s.all], ...Object.entries(s.byKind), ...Object.entries(s.byEco)]));
      const c = checked[set];
      console.log(
        `privacy leaks: ${s.all.leaks} (of ${c?.values} private values of these outputs, shown by a public surface or the export after the lookups; ${c?.wanted} wanted rows)`,
      );
    }
    console.log('\ntop1: first answer is the expected entry (labelled); cwrong: a fix from a wrong entry, or any fix for a none item (all items);');
    console.log('wrongLab/wrongNone: the same on labelled / none items; R@3, MRR: expected among the candidates named; 1line, whole: top1 by kind');
  }
  if (misses.length) console.error(misses.join('\n'));
  // Leaks are always listed: each is a defect to mend, not a figure to tune.
  if (leaked.length) console.error(leaked.join('\n'));
  if (args.floors) {
    const bad = checkFloors(args.floors, summary);
    if (bad.length) {
      console.error(`eval:kb below floors (${args.floors}):\n  ${bad.join('\n  ')}`);
      process.exitCode = 1;
    } else if (!args.json) console.log(`floors of ${args.floors}: met`);
  }
}

await main();
