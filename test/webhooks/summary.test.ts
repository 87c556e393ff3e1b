// Summary lines and signature checks in isolation: every provider's line shapes, the cleaning of
// untrusted fields, redaction, the line cap, and the constant-shape verification.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { limit } from '../../src/core/kernel/limits.js';
import { githubLine } from '../../src/core/webhooks/github.js';
import { gitlabLine } from '../../src/core/webhooks/gitlab.js';
import { genericLine } from '../../src/core/webhooks/generic.js';
import { normEvent, verify } from '../../src/core/webhooks/secret.js';
import { clamp, finish, quote, tok } from '../../src/core/webhooks/summary.js';

const repo = { full_name: 'octo-org/widget' };
const sender = { login: 'monalisa' };

describe('GitHub lines', () => {
  it('release, pull_request opened, comment, workflow and an event without its own form', () => {
    expect(githubLine('release', { action: 'published', release: { tag_name: 'v1.4.2', name: 'Odd widths' }, repository: repo, sender })).toBe(
      'release published v1.4.2 name="Odd widths" by=monalisa repo=octo-org/widget',
    );
    expect(
      githubLine('pull_request', {
        action: 'opened',
        number: 5,
        pull_request: { title: 'x', merged: false, head: { ref: 'a' }, base: { ref: 'main' } },
        repository: repo,
        sender,
      }),
    ).toBe('pr opened #5 title="x" by=monalisa repo=octo-org/widget a->main');
    expect(
      githubLine('pull_request', {
        action: 'closed',
        number: 5,
        pull_request: { title: 'x', merged: false, head: { ref: 'a' }, base: { ref: 'main' } },
        repository: repo,
        sender,
      }),
    ).toMatch(/^pr closed #5 /);
    expect(githubLine('issue_comment', { action: 'created', issue: { number: 9, title: 'T' }, repository: repo, sender })).toBe(
      'comment created #9 on="T" by=monalisa repo=octo-org/widget',
    );
    expect(githubLine('star', { action: 'created', repository: repo, sender })).toBe('github star action=created by=monalisa repo=octo-org/widget');
    expect(
      githubLine('push', {
        ref: 'refs/heads/gone',
        deleted: true,
        after: '0000000000000000000000000000000000000000',
        commits: [],
        pusher: { name: 'm' },
        repository: repo,
      }),
    ).toBe('push repo=octo-org/widget ref=refs/heads/gone by=m commits=0 deleted');
  });

  it('a payload of the wrong shape still gives a line, never a throw', () => {
    expect(githubLine('issues', undefined)).toBe('issue - #? title="" by=- repo=-');
    expect(githubLine('push', [1, 2, 3])).toBe('push repo=- ref=- by=- commits=0');
    expect(githubLine('issues', { issue: { title: { nested: true }, number: 'x' } })).toBe('issue - #? title="" by=- repo=-');
  });
});

describe('GitLab lines', () => {
  const project = { path_with_namespace: 'g/w' };
  const user = { username: 'js' };
  it('issue, pipeline, tag push, note and others', () => {
    expect(gitlabLine('issue', { object_kind: 'issue', user, project, object_attributes: { iid: 3, title: 'Broken', action: 'close' } })).toBe(
      'issue closed #3 title="Broken" by=js repo=g/w',
    );
    expect(gitlabLine('pipeline', { object_kind: 'pipeline', user, project, object_attributes: { id: 77, status: 'failed', ref: 'main' } })).toBe(
      'pipeline failed #77 ref=main by=js repo=g/w',
    );
    expect(gitlabLine('tag_push', { object_kind: 'tag_push', user_username: 'js', project, ref: 'refs/tags/v1', total_commits_count: 0, commits: [] })).toBe(
      'tag repo=g/w ref=refs/tags/v1 by=js commits=0',
    );
    expect(
      gitlabLine('merge_request', {
        object_kind: 'merge_request',
        user,
        project,
        object_attributes: { iid: 7, title: 't', action: 'merge', source_branch: 'a', target_branch: 'main' },
      }),
    ).toMatch(/^mr merged !7 /);
    expect(gitlabLine('wiki_page', { object_kind: 'wiki_page', user, project })).toBe('gitlab wiki_page by=js repo=g/w');
  });
});

describe('generic lines', () => {
  it('text or summary field, a plain text body, else the size', () => {
    expect(genericLine('deploy', { text: 'ok' }, Buffer.from('{"text":"ok"}'))).toBe('deploy text="ok"');
    expect(genericLine('deploy', { summary: 's' }, Buffer.from('{}'))).toBe('deploy text="s"');
    expect(genericLine('event', undefined, Buffer.from('plain words\nmore'))).toBe('event text="plain words"');
    expect(genericLine('event', { n: 1 }, Buffer.from('{"n":1}'))).toBe('event bytes=7');
  });
});

describe('cleaning untrusted fields', () => {
  it('control, bidi and zero-width characters go; words lose spaces and quotes; free text is quoted', () => {
    expect(tok('main\u202e\u200b branch"x')).toBe('main_branch_x');
    expect(quote('say "hi"\u0000\u001b[31m\nsecond line')).toBe('"say \\"hi\\" [31m"');
    expect(tok('')).toBe('-');
    expect(tok('x'.repeat(500)).length).toBe(limit('in.field'));
  });

  it('clamp never splits a surrogate pair', () => {
    const s = 'a'.repeat(8) + '😀' + 'bc';
    expect(clamp(s, 10)).toBe('a'.repeat(8) + '…');
    expect(clamp(s, 11)).toBe('a'.repeat(8) + '😀…');
  });

  it('finish: one line within the cap, every secret redacted', () => {
    const r = finish(`push msg="${'word '.repeat(400)}"`);
    expect(r.line.length).toBeLessThanOrEqual(limit('in.line'));
    const gh = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
    const aws = 'AKIA' + 'QX7ZP3LMN2RT5VWY';
    const s = finish(`x title="${gh} and ${aws}" y=password=Sup3r$ecret99`);
    expect(s.line).toBe('x title="[redacted] and [redacted]" y=password=[redacted]');
    expect(s.redacted).toBe(3);
  });
});

describe('signature checks', () => {
  const body = Buffer.from('{"a":1}');
  const hex = (k: string, ...p: string[]) => createHmac('sha256', k).update(p.join('')).digest('hex');
  it('GitHub: the right MAC passes; another, a malformed or a missing header does not', () => {
    expect(
      verify('github', 'k', { 'x-hub-signature-256': `sha256=${hex('k', '{"a":1}')}`, 'x-github-event': 'push', 'x-github-delivery': 'd' }, body, 0, 300),
    ).toEqual({ ok: true, event: 'push', signed: `mac:${hex('k', '{"a":1}')}` });
    // The replay key is the signed content: delivery-id headers do not change it.
    expect(verify('github', 'k', { 'x-hub-signature-256': `sha256=${hex('k', '{"a":1}')}`, 'x-github-delivery': 'other' }, body, 0, 300).signed).toBe(
      `mac:${hex('k', '{"a":1}')}`,
    );
    expect(verify('github', 'k', { 'x-hub-signature-256': `sha256=${hex('j', '{"a":1}')}` }, body, 0, 300).ok).toBe(false);
    expect(verify('github', 'k', { 'x-hub-signature-256': 'sha1=abc' }, body, 0, 300).ok).toBe(false);
    expect(verify('github', 'k', {}, body, 0, 300).ok).toBe(false);
  });
  it('GitLab: the token, compared whole', () => {
    expect(verify('gitlab', 'tok-1', { 'x-gitlab-token': 'tok-1', 'x-gitlab-event': 'Merge Request Hook' }, body, 0, 300)).toMatchObject({
      ok: true,
      event: 'merge_request',
    });
    expect(verify('gitlab', 'tok-1', { 'x-gitlab-token': 'tok-12' }, body, 0, 300).ok).toBe(false);
    // No signature of the body: the body itself names the delivery, whatever the id headers say.
    const a = verify('gitlab', 'tok-1', { 'x-gitlab-token': 'tok-1', 'idempotency-key': 'i', 'x-gitlab-event-uuid': 'u' }, body, 0, 300).signed;
    expect(verify('gitlab', 'tok-1', { 'x-gitlab-token': 'tok-1', 'idempotency-key': 'j' }, body, 0, 300).signed).toBe(a);
    expect(verify('gitlab', 'tok-1', { 'x-gitlab-token': 'tok-1', 'idempotency-key': 'i' }, Buffer.from('{"a":2}'), 0, 300).signed).not.toBe(a);
  });
  it('generic: MAC of "<ts>.<body>" within the tolerance', () => {
    const now = 1_800_000_000_000;
    const ts = String(now / 1000);
    const h = { 'x-cx-timestamp': ts, 'x-cx-signature': `sha256=${hex('k', ts, '.', '{"a":1}')}` };
    expect(verify('generic', 'k', h, body, now, 300)).toMatchObject({ ok: true, event: 'event', signed: `mac:${hex('k', ts, '.', '{"a":1}')}` });
    expect(verify('generic', 'k', { ...h, 'x-cx-delivery': 'd' }, body, now, 300).signed).toBe(`mac:${hex('k', ts, '.', '{"a":1}')}`);
    expect(verify('generic', 'k', h, body, now + 301_000, 300).ok).toBe(false);
    expect(verify('generic', 'k', h, body, now - 301_000, 300).ok).toBe(false);
    expect(verify('generic', 'k', { ...h, 'x-cx-timestamp': String(now / 1000 + 1) }, body, now, 300).ok).toBe(false);
  });
  it('event names are normalized, odd ones match nothing', () => {
    expect(normEvent('Push Hook')).toBe('push');
    expect(normEvent('Tag Push Hook')).toBe('tag_push');
    expect(normEvent('pull_request')).toBe('pull_request');
    expect(normEvent('<script>')).toBe('');
  });
});
