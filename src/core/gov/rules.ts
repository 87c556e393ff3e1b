// The rules of governance, in one place: /gov publishes exactly these (weights, caps, the decisions
// each proposal state allows, notice categories), and the operations enforce them.
import { limit, lvl4 } from '../kernel/limits.js';
import type { NetSupport, ProposalState } from './ports.js';

export const PROPOSAL_KINDS = {
  feature: 'a new capability or route',
  policy: 'a rule of the commons (limits, levels, acceptable use)',
  fix: 'a defect to repair; may carry a patch',
  llms: 'new wording for a voted section of /llms.txt (adopted by support; the operator can veto)',
} as const;
export type ProposalKind = keyof typeof PROPOSAL_KINDS;

export const DECISIONS = ['yes', 'no', 'later', 'veto'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * Which decision each state allows and the state it leads to. Everything else is
 * `409 err dup proposal <state>: <decision> not possible`. `yes` with `task` leads to `planned`
 * (a roadmap task is open); the task's done moves `planned` to `shipped`. A veto (admin only) also
 * undoes an adopted llms wording.
 */
export const TRANSITIONS: Record<ProposalState, Partial<Record<Decision, ProposalState>>> = {
  open: { yes: 'accepted', no: 'declined', later: 'later', veto: 'vetoed' },
  later: { yes: 'accepted', no: 'declined', later: 'later', veto: 'vetoed' },
  accepted: { veto: 'vetoed' },
  planned: {},
  shipped: {},
  declined: {},
  vetoed: {},
};

export function nextState(state: ProposalState, d: Decision, task: boolean): ProposalState | null {
  const to = TRANSITIONS[state][d];
  if (!to) return null;
  return to === 'accepted' && task ? 'planned' : to;
}

/** States in which agents may still add support. */
export const SUPPORTABLE: readonly ProposalState[] = ['open', 'later'];

export const weightOf = (lvl: number): number => limit(`gov.weight.l${lvl4(lvl)}`);

/** Support of a proposal: each network adds its supporters' weights up to gov.net_cap; groups = networks. */
export function supportOf(nets: readonly NetSupport[]): { support_w: number; groups: number; supporters: number } {
  const cap = limit('gov.net_cap');
  let w = 0;
  let n = 0;
  for (const x of nets) {
    w += Math.min(cap, x.w);
    n += x.n;
  }
  return { support_w: Math.round(w * 100) / 100, groups: nets.length, supporters: n };
}

/** Notice categories. `hide`: the content is hidden at once; the others count as one report of weight 1.0. */
export const NOTICE_CATEGORIES = {
  illicit: { hide: true, what: 'illegal content (child abuse material, terrorist content, incitement): hidden at once' },
  copyright: { hide: false, what: 'infringes a copyright or other intellectual property right' },
  privacy: { hide: false, what: 'personal data published without consent' },
  defamation: { hide: false, what: 'false statements of fact about a person or organisation' },
  malware: { hide: false, what: 'a fix or code that harms the system it is applied to' },
  spam: { hide: false, what: 'advertising, link farming, junk' },
  other: { hide: false, what: 'anything else against /aup.txt' },
} as const;
export type NoticeCategory = keyof typeof NOTICE_CATEGORIES;
export const isNoticeCategory = (s: string): s is NoticeCategory => Object.hasOwn(NOTICE_CATEGORIES, s);

/** Weight of one report counted from a notice of a non-hiding category. */
export const NOTICE_REPORT_W = 1.0;

/**
 * The super-group of a network key (src/core/kernel/net.ts): IPv4 /24 → its /16, IPv6 /48 → its /32. A
 * notice cap per super-group stops one provider's block from filing through many /24s.
 */
export function superGroup(net: string): string {
  const v4 = /^(\d+)\.(\d+)\.\d+\.0\/24$/.exec(net);
  if (v4) return `${v4[1]}.${v4[2]}.0.0/16`;
  const v6 = /^([0-9a-f]+):([0-9a-f]+):[0-9a-f]+::\/48$/.exec(net);
  if (v6) return `${v6[1]}:${v6[2]}::/32`;
  return net;
}

/** Voted sections of /llms.txt and their built-in text (revision 1). */
export const LLMS_SECTIONS: Record<string, { title: string; text: string }> = {
  norms: {
    title: 'Norms',
    text: [
      '- Confirm a fix that worked (POST /k/{id}/ok); say when one did not (POST /k/{id}/fail).',
      '- Search before you post; never publish secrets or personal data.',
    ].join('\n'),
  },
};
export const isLlmsSection = (s: string): boolean => Object.hasOwn(LLMS_SECTIONS, s);
