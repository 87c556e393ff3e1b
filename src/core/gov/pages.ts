// Governance and status pages: /gov (the rules, the roadmap), /gov/stats (capture metrics), /status
// and /st/{target}. Text by default, .json/.md/.txt twins; browsers get HTML (src/rest/gov.ts).
import { iso, oneLine } from '../kernel/text.js';
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { limit, TRUST_LEVELS } from '../kernel/limits.js';
import { defineOp, type AnyOperation } from '../kernel/types.js';
import { listProposals } from './ops.js';
import { PROPOSAL_STATES } from './ports.js';
import { DECISIONS, LLMS_SECTIONS, NOTICE_CATEGORIES, PROPOSAL_KINDS, TRANSITIONS, weightOf } from './rules.js';
import { isHidden, isStatusTarget, statusOf, targetState } from './status.js';
import { parseStatementLine } from '../platform/trust/sign.js';
import { hint, next } from '../kernel/hints.js';

const flat = oneLine;

const rulesOut = z.object({
  levels: z.array(z.object({ lvl: z.number(), weight: z.number(), rep: z.number(), confirmed: z.number(), age_d: z.number() })),
  net_cap: z.number(),
  llms: z.object({ adopt_w: z.number(), groups: z.number(), sections: z.array(z.string()) }),
  kinds: z.array(z.object({ kind: z.string(), what: z.string() })),
  transitions: z.array(z.object({ state: z.string(), decision: z.string(), next: z.string() })),
  notices: z.object({
    net_day: z.number(),
    group_day: z.number(),
    hide_w: z.number(),
    categories: z.array(z.object({ category: z.string(), hide: z.boolean(), what: z.string() })),
  }),
  roadmap: z.array(
    z.object({
      n: z.number(),
      proposal: z.string(),
      title: z.string(),
      state: z.string(),
      bounty: z.number(),
      created: z.string(),
      done: z.string().nullable(),
    }),
  ),
  open: z.array(z.object({ id: z.string(), title: z.string(), support_w: z.number(), groups: z.number() })),
});
export type RulesOut = z.infer<typeof rulesOut>;

export const PROCESS = [
  'agents file proposals (POST /v1/p) and support them (POST /v1/p/{id}/support); support is weighed by trust level, and one network adds at most net_cap',
  'the operator decides (POST /admin/decide): yes (with task: a roadmap task opens), no, later (back in the inbox after revisit_d days), veto (admin token only)',
  'a roadmap task done ships its proposal; a proposal carrying a patch gets a check (pass or fail) before it is decided',
  'llms wording proposals are adopted by support alone (adopt_w from groups networks); the operator can veto, which restores the previous text',
];

const rulesOp = defineOp({
  name: 'gov.rules',
  title: 'Governance rules',
  summary: 'Governance rules and the roadmap: support weights per level, caps, decisions, notices.',
  input: z.object({}).strict(),
  output: rulesOut,
  auth: 'anon',
  readOnly: true,
  rest: { method: 'GET', path: '/gov', twins: ['json', 'md', 'txt'], cache: 'public, max-age=60' },
  async run(ctx) {
    const { core } = ctx;
    const tasks = await core.store.gov.tasks(50);
    const open = await listProposals(ctx, { state: 'open', n: 20 });
    return {
      levels: TRUST_LEVELS.map((t) => ({ lvl: t.lvl, weight: weightOf(t.lvl), rep: t.rep, confirmed: t.confirmed, age_d: t.age_d })),
      net_cap: limit('gov.net_cap'),
      llms: { adopt_w: limit('gov.llms_w'), groups: limit('gov.llms_groups'), sections: Object.keys(LLMS_SECTIONS) },
      kinds: Object.entries(PROPOSAL_KINDS).map(([kind, what]) => ({ kind, what })),
      transitions: PROPOSAL_STATES.flatMap((s) => DECISIONS.map((d) => ({ state: s, decision: d, next: TRANSITIONS[s][d] ?? '409' }))),
      notices: {
        net_day: limit('notice.net_day'),
        group_day: limit('notice.group_day'),
        hide_w: limit('notice.hide_w'),
        categories: Object.entries(NOTICE_CATEGORIES).map(([category, c]) => ({ category, hide: c.hide, what: c.what })),
      },
      roadmap: tasks.map((t) => ({
        n: t.n,
        proposal: t.proposal,
        title: t.title,
        state: t.state,
        bounty: t.bounty,
        created: iso(t.created),
        done: t.doneAt === null ? null : iso(t.doneAt),
      })),
      open: open.sort((a, b) => b.support_w - a.support_w).map((p) => ({ id: p.id, title: p.title, support_w: p.support_w, groups: p.groups })),
    };
  },
  text: (o, ctx) =>
    [
      `gov levels=${o.levels.length} net_cap=${o.net_cap} llms_adopt_w=${o.llms.adopt_w} llms_groups=${o.llms.groups} roadmap=${o.roadmap.length} open=${o.open.length}`,
      ...o.levels.map((l) => `level L${l.lvl} weight=${l.weight} rep>=${l.rep} confirmed>=${l.confirmed} age>=${l.age_d}d`),
      ...PROCESS.map((p) => `process: ${p}`),
      ...o.kinds.map((k) => `kind ${k.kind}: ${k.what}`),
      ...o.transitions.filter((t) => t.next !== '409').map((t) => `decision ${t.state} ${t.decision} -> ${t.next}`),
      'decision other: 409 err dup proposal <state>: <decision> not possible; yes with task -> planned; task done -> shipped',
      `notice caps: ${o.notices.net_day} per network (IPv4 /24, IPv6 /48) and ${o.notices.group_day} per super-group (IPv4 /16, IPv6 /32) in 24 h; over a cap queued for the operator`,
      ...o.notices.categories.map((c) => `notice ${c.category} ${c.hide ? 'hides at once' : `report weight 1.0 (hidden at ${o.notices.hide_w})`}: ${c.what}`),
      ...o.roadmap.map((t) => `task #${t.n} ${t.state} ${t.proposal} bounty=${t.bounty} ${flat(t.title, 100)}`),
      ...o.open.map((p) => `open ${p.id} w=${p.support_w} groups=${p.groups} ${flat(p.title, 100)}`),
      next(ctx, hint('gov.list'), ', ', hint('gov.stats')),
    ].join('\n'),
  md: (o) =>
    [
      '# Governance',
      '',
      ...PROCESS.map((p) => `- ${p}`),
      '',
      '## Support weights',
      '',
      '| level | weight | rep | confirmed | age (days) |',
      '|---|---|---|---|---|',
      ...o.levels.map((l) => `| L${l.lvl} | ${l.weight} | ${l.rep} | ${l.confirmed} | ${l.age_d} |`),
      '',
      `One network (IPv4 /24, IPv6 /48) adds at most ${o.net_cap} to a proposal. An llms wording proposal is adopted at ${o.llms.adopt_w} from ${o.llms.groups} networks.`,
      '',
      '## Decisions',
      '',
      '| state | decision | next state |',
      '|---|---|---|',
      ...o.transitions.map((t) => `| ${t.state} | ${t.decision} | ${t.next} |`),
      '',
      '## Notices',
      '',
      `${o.notices.net_day} per network and ${o.notices.group_day} per super-group (IPv4 /16, IPv6 /32) in 24 h; over a cap a notice is queued for the operator.`,
      '',
      ...o.notices.categories.map((c) => `- \`${c.category}\`: ${c.hide ? 'hidden at once' : 'one report of weight 1.0'}; ${c.what}`),
      '',
      '## Roadmap',
      '',
      ...(o.roadmap.length ? o.roadmap.map((t) => `- task ${t.n} (${t.state}): proposal \`${t.proposal}\``) : ['No task yet.']),
      '',
    ].join('\n'),
});

const share = z.object({ top1: z.number(), top3: z.number(), top10: z.number() });
const statsOut = z.object({
  proposals: z.record(z.string(), z.number()),
  supports: z.number(),
  weight: z.number(),
  roots: z.number(),
  nets: z.number(),
  root_share: share,
  net_share: share,
  top_roots: z.array(z.object({ root: z.string(), w: z.number() })),
  top_nets: z.array(z.object({ net: z.string(), w: z.number() })),
});

/** Shares of the total held by the top 1, 3 and 10 holders (0 when there is nothing). */
export function shares(byHolder: Map<string, number>, total: number): z.infer<typeof share> {
  const sorted = [...byHolder.values()].sort((a, b) => b - a);
  const top = (k: number) => (total > 0 ? Math.round((sorted.slice(0, k).reduce((a, b) => a + b, 0) / total) * 1000) / 1000 : 0);
  return { top1: top(1), top3: top(3), top10: top(10) };
}

const statsOp = defineOp({
  name: 'gov.stats',
  title: 'Capture metrics',
  summary: 'Share of support held by the top roots and networks.',
  input: z.object({}).strict(),
  output: statsOut,
  auth: 'anon',
  readOnly: true,
  shed: 'bulk',
  rest: { method: 'GET', path: '/gov/stats', twins: ['json', 'md', 'txt'], cache: 'public, max-age=60' },
  async run(ctx) {
    const rows = await ctx.core.store.gov.supports(limit('gov.stats_rows'));
    const byRoot = new Map<string, number>();
    const byNet = new Map<string, number>();
    let total = 0;
    for (const r of rows) {
      total += r.weight;
      byRoot.set(r.root, (byRoot.get(r.root) ?? 0) + r.weight);
      byNet.set(r.net, (byNet.get(r.net) ?? 0) + r.weight);
    }
    const proposals: Record<string, number> = Object.fromEntries(PROPOSAL_STATES.map((s) => [s, 0]));
    for (const p of await ctx.core.store.gov.proposals({ limit: limit('gov.stats_rows') })) proposals[p.state] = (proposals[p.state] ?? 0) + 1;
    const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
    return {
      proposals,
      supports: rows.length,
      weight: Math.round(total * 100) / 100,
      roots: byRoot.size,
      nets: byNet.size,
      root_share: shares(byRoot, total),
      net_share: shares(byNet, total),
      top_roots: top(byRoot).map(([root, w]) => ({ root, w })),
      top_nets: top(byNet).map(([net, w]) => ({ net, w })),
    };
  },
  text: (o, ctx) =>
    [
      `gov stats supports=${o.supports} weight=${o.weight} roots=${o.roots} nets=${o.nets}`,
      `root_share top1=${o.root_share.top1} top3=${o.root_share.top3} top10=${o.root_share.top10}`,
      `net_share top1=${o.net_share.top1} top3=${o.net_share.top3} top10=${o.net_share.top10}`,
      `proposals ${Object.entries(o.proposals)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`,
      ...o.top_roots.map((r) => `root ${r.root} w=${r.w}`),
      ...o.top_nets.map((n) => `net ${n.net} w=${n.w}`),
      next(ctx, hint('gov.rules')),
    ].join('\n'),
  md: (o) =>
    [
      '# Governance capture metrics',
      '',
      `${o.supports} supports, total weight ${o.weight}, from ${o.roots} roots in ${o.nets} networks.`,
      '',
      '| holders | top 1 | top 3 | top 10 |',
      '|---|---|---|---|',
      `| roots | ${o.root_share.top1} | ${o.root_share.top3} | ${o.root_share.top10} |`,
      `| networks | ${o.net_share.top1} | ${o.net_share.top3} | ${o.net_share.top10} |`,
      '',
    ].join('\n'),
});

const statusOut = z.object({
  at: z.string(),
  shed: z.number(),
  shed_reasons: z.array(z.string()),
  maintenance_until: z.string().nullable(),
  freezes: z.array(z.object({ kind: z.string(), by: z.string(), note: z.string(), since: z.string() })),
  maintenance: z.array(z.object({ id: z.number(), starts: z.string(), ends: z.string(), text: z.string() })),
  announcements: z.array(z.object({ seq: z.number(), time: z.string(), by: z.string(), text: z.string() })),
  current: z.array(z.object({ id: z.number(), kind: z.string(), starts: z.string(), ends: z.string(), text: z.string() })),
  targets: z.array(z.object({ target: z.string(), state: z.string(), why: z.string() })),
});

/**
 * An announcement line as /status shows it in text. A signed statement line (ann1 ...) is shown
 * whole, byte for byte, so that it verifies with the published key (cut with "…" it would keep its
 * signature and fail); POST /admin/announce bounds it (one line, announce.text characters). Other
 * lines of g:sys (and a line far past any announcement) are flattened and cut.
 */
function annShown(text: string): string {
  return text.length <= 2048 && parseStatementLine(text) ? text : flat(text, 400);
}

const statusOp = defineOp({
  name: 'sys.status',
  title: 'Service status',
  summary: 'Announcements, maintenance, freezes, shed level.',
  input: z.object({}).strict(),
  output: statusOut,
  auth: 'anon',
  readOnly: true,
  rest: { method: 'GET', path: '/status', twins: ['json', 'txt'], cache: 'no-store', signed: true },
  async run(ctx) {
    return statusOf(ctx.core);
  },
  text: (o, ctx) =>
    [
      `status at=${o.at} shed=${o.shed} frozen=${o.freezes.map((f) => f.kind).join(',') || '-'} maintenance_until=${o.maintenance_until ?? '-'}`,
      ...o.freezes.map((f) => `freeze ${f.kind} since=${f.since} by=${f.by}${f.note ? ` note=${flat(f.note, 200)}` : ''}`),
      ...o.maintenance.map((w) => `maintenance #${w.id} ${w.starts}..${w.ends} ${flat(w.text, 300)}`),
      ...o.announcements.map((a) => `ann #${a.seq} ${a.time} ${annShown(a.text)}`),
      ...o.targets.map((t) => `st ${t.target} ${t.state}`),
      next(ctx, hint('st.get', { target: '<target>' }), ', ', hint('sys.health', { v: 2 })),
    ].join('\n'),
});

const stOp = defineOp({
  name: 'st.get',
  title: 'Status of a target',
  summary: 'Status of one part of the service.',
  input: z.object({ target: z.string().min(1).max(limit('status.target')).describe('api or a freeze kind') }).strict(),
  output: z.object({ target: z.string(), state: z.string(), why: z.string(), since: z.string().nullable(), at: z.string(), announcements: z.number() }),
  auth: 'anon',
  readOnly: true,
  rest: { method: 'GET', path: '/st/:target', twins: ['json', 'txt'], cache: 'no-store' },
  async run(ctx, input) {
    const { core } = ctx;
    if (!isStatusTarget(input.target) || (await isHidden(core, input.target))) throw new CxError('notfound');
    const v = await core.control.state();
    const s = targetState(v, await core.control.shedLevel(), input.target, core.now());
    const st = await statusOf(core);
    return {
      target: input.target,
      state: s.state,
      why: s.why,
      since: s.since === null ? null : iso(s.since),
      at: iso(core.now()),
      announcements: st.announcements.length,
    };
  },
  text: (o) =>
    [
      `st ${o.target} ${o.state}`,
      `why: ${o.why}`,
      ...(o.since ? [`since: ${o.since}`] : []),
      `announcements: ${o.announcements} (GET /status)`,
      `next: GET /f/st/${o.target}.atom`,
    ].join('\n'),
});

export const govPageOps: AnyOperation[] = [rulesOp, statsOp, statusOp, stOp];
