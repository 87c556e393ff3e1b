// GitLab deliveries as one summary line (the payload's object_kind names its shape).
import { at, num, quote, str, tok } from './summary.js';

const repoOf = (p: unknown) => tok(at(p, 'project', 'path_with_namespace'));
const byOf = (p: unknown) => tok(at(p, 'user', 'username') ?? at(p, 'user_username') ?? at(p, 'user', 'name') ?? at(p, 'user_name'));
// GitLab's actions are verbs ("open", "merge"); lines say what happened, as GitHub's do.
const PAST: Record<string, string> = {
  open: 'opened',
  close: 'closed',
  reopen: 'reopened',
  merge: 'merged',
  update: 'updated',
  approved: 'approved',
  unapproved: 'unapproved',
  approval: 'approved',
  unapproval: 'unapproved',
};
const past = (a: unknown) => PAST[str(a)] ?? tok(a);

export function gitlabLine(event: string, p: unknown): string {
  const kind = str(at(p, 'object_kind')) || event;
  const o = (...k: string[]) => at(p, 'object_attributes', ...k);
  switch (kind) {
    case 'push':
    case 'tag_push': {
      const n = at(p, 'total_commits_count');
      const commits = at(p, 'commits');
      const last = Array.isArray(commits) && commits.length ? at(commits[commits.length - 1], 'message') : undefined;
      return [
        `${kind === 'push' ? 'push' : 'tag'} repo=${repoOf(p)} ref=${tok(at(p, 'ref'))} by=${byOf(p)} commits=${typeof n === 'number' ? num(n) : Array.isArray(commits) ? commits.length : 0}`,
        ...(str(at(p, 'checkout_sha')).length >= 7 ? [`head=${str(at(p, 'checkout_sha')).slice(0, 7)}`] : []),
        ...(typeof last === 'string' ? [`msg=${quote(last)}`] : []),
      ].join(' ');
    }
    case 'merge_request':
      return `mr ${past(o('action') ?? o('state'))} !${num(o('iid'))} title=${quote(o('title'))} by=${byOf(p)} repo=${repoOf(p)} ${tok(o('source_branch'))}->${tok(o('target_branch'))}`;
    case 'issue':
      return `issue ${past(o('action') ?? o('state'))} #${num(o('iid'))} title=${quote(o('title'))} by=${byOf(p)} repo=${repoOf(p)}`;
    case 'note':
      return `comment on ${tok(o('noteable_type'))} by=${byOf(p)} repo=${repoOf(p)}`;
    case 'pipeline':
      return `pipeline ${tok(o('status'))} #${num(o('id'))} ref=${tok(o('ref'))} by=${byOf(p)} repo=${repoOf(p)}`;
    case 'release':
      return `release ${tok(at(p, 'action'))} ${tok(at(p, 'tag'))} name=${quote(at(p, 'name'))} repo=${repoOf(p)}`;
    default:
      return `gitlab ${tok(kind)} by=${byOf(p)} repo=${repoOf(p)}`;
  }
}
