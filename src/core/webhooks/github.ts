// GitHub deliveries as one summary line (X-GitHub-Event names the payload's shape).
import { at, num, quote, str, tok } from './summary.js';

const repoOf = (p: unknown) => tok(at(p, 'repository', 'full_name'));
const byOf = (p: unknown) => tok(at(p, 'sender', 'login') ?? at(p, 'pusher', 'name'));

export function githubLine(event: string, p: unknown): string {
  const action = tok(at(p, 'action'));
  switch (event) {
    case 'ping':
      return at(p, 'repository') ? `ping repo=${repoOf(p)} hook=${num(at(p, 'hook_id'))}` : `ping hook=${num(at(p, 'hook_id'))}`;
    case 'push': {
      const commits = at(p, 'commits');
      const flags = ['created', 'deleted', 'forced'].filter((f) => at(p, f) === true);
      const head = str(at(p, 'after')).slice(0, 7);
      const msg = at(p, 'head_commit', 'message');
      return [
        `push repo=${repoOf(p)} ref=${tok(at(p, 'ref'))} by=${tok(at(p, 'pusher', 'name') ?? at(p, 'sender', 'login'))} commits=${Array.isArray(commits) ? commits.length : 0}`,
        ...flags,
        ...(/^[0-9a-f]{7}$/.test(head) && !/^0+$/.test(head) ? [`head=${head}`] : []),
        ...(typeof msg === 'string' ? [`msg=${quote(msg)}`] : []),
      ].join(' ');
    }
    case 'issues':
      return `issue ${action} #${num(at(p, 'issue', 'number'))} title=${quote(at(p, 'issue', 'title'))} by=${byOf(p)} repo=${repoOf(p)}`;
    case 'issue_comment':
      return `comment ${action} #${num(at(p, 'issue', 'number'))} on=${quote(at(p, 'issue', 'title'))} by=${byOf(p)} repo=${repoOf(p)}`;
    case 'pull_request': {
      const merged = action === 'closed' && at(p, 'pull_request', 'merged') === true;
      const pr = (k: string, ...r: string[]) => at(p, 'pull_request', k, ...r);
      return `pr ${merged ? 'merged' : action} #${num(at(p, 'number') ?? pr('number'))} title=${quote(pr('title'))} by=${byOf(p)} repo=${repoOf(p)} ${tok(pr('head', 'ref'))}->${tok(pr('base', 'ref'))}`;
    }
    case 'pull_request_review':
      return `review ${tok(at(p, 'review', 'state'))} #${num(at(p, 'pull_request', 'number'))} by=${byOf(p)} repo=${repoOf(p)}`;
    case 'release':
      return `release ${action} ${tok(at(p, 'release', 'tag_name'))} name=${quote(at(p, 'release', 'name'))} by=${byOf(p)} repo=${repoOf(p)}`;
    case 'workflow_run':
      return `workflow ${action} ${quote(at(p, 'workflow_run', 'name'))} conclusion=${tok(at(p, 'workflow_run', 'conclusion'))} branch=${tok(at(p, 'workflow_run', 'head_branch'))} repo=${repoOf(p)}`;
    case 'create':
    case 'delete':
      return `${event} ${tok(at(p, 'ref_type'))} ${tok(at(p, 'ref'))} by=${byOf(p)} repo=${repoOf(p)}`;
    default:
      return `github ${tok(event)}${at(p, 'action') === undefined ? '' : ` action=${action}`} by=${byOf(p)} repo=${repoOf(p)}`;
  }
}
