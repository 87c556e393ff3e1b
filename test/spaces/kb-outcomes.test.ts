// Issue 39 with issue 35: outcomes of a space's private entries. Members record them with the same
// operation on every face (POST /k/{id}/outcome, /ok, /fail; MCP kb_outcome; A2A kb.outcome); they
// rank the entry for members as public outcomes rank public entries, and show on its page with
// their notes; to anyone else the id is unknown, byte for byte. The last owner of a closed space
// stays; private entries signed by an earlier ErrSig version are re-signed at start and keep
// matching, their old hash too.
import * as ed from '@noble/ed25519';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRSIG_VERSION, errsig } from '../../src/core/kb/errsig/errsig.js';
import * as v2 from '../../src/core/kb/errsig/errsig-v2.js';
import { skill, skillText } from '../helpers/faces.js';
import { agent, call, req, snapshot, type Who } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';
import { canonical } from '../trust/verify-helpers.js';

const data = mkdtempSync(join(tmpdir(), 'cx-space-outcomes-'));
const ENV = { CX_TRUST_PROXY: '1', CX_SEED: '0', CX_SHED: '0', CX_QUOTA_MULT: '50' };
let s: TestServer;
let owner: Who;
let member: Who;
let member2: Who;
let outsider: Who;

const ERR = 'RatchetSlipError: ratchet r-5 slipped in the zeta press';
const UNKNOWN = 'kzzzzzzzz';

async function invite(slug: string, role = 'member'): Promise<string> {
  const r = await call(s, 'POST', `/v1/spaces/${slug}/invite`, { as: owner, json: { role }, headers: { accept: 'application/json' } });
  expect(r.status, r.text).toBe(201);
  return (JSON.parse(r.text) as { invite: string }).invite;
}
const join_ = (slug: string, as: Who, inv: string) => call(s, 'POST', `/v1/spaces/${slug}/join`, { as, json: { invite: inv } });
const addPrivate = async (as: Who, error: string, fix: string) => {
  const r = await call(s, 'POST', '/k', { as, json: { error, fix, eco: 'pypi', space: 's:crew' }, headers: { accept: 'application/json' } });
  expect(r.status, r.text).toBe(201);
  return (JSON.parse(r.text) as { id: string }).id;
};
const addPublic = async (as: Who, error: string, fix: string) => {
  const r = await call(s, 'POST', '/k', { as, json: { error, fix, eco: 'pypi' }, headers: { accept: 'application/json' } });
  expect(r.status, r.text).toBe(201);
  return (JSON.parse(r.text) as { id: string }).id;
};
const outcome = (as: Who, id: string, body: Record<string, unknown>, net?: string) =>
  call(s, 'POST', `/k/${id}/outcome`, { as, json: body, ...(net ? { net } : {}) });
/** Entry ids of a member's lookup, in the order shown (fixes, then related). */
const lookupIds = async (as: Who, text: string) => {
  const o = JSON.parse((await call(s, 'POST', '/e', { as, text, headers: { accept: 'application/json' } })).text) as {
    entries: Array<{ id: string }>;
    related: Array<{ id: string }>;
  };
  return [...o.entries, ...o.related].map((e) => e.id);
};
const hashIds = async (as: Who, h: string) =>
  (JSON.parse((await call(s, 'GET', `/h/${h}`, { as, headers: { accept: 'application/json' } })).text) as { entries: Array<{ id: string }> }).entries.map(
    (e) => e.id,
  );

beforeAll(async () => {
  s = await start(ENV, { dir: data });
  [owner, member, member2, outsider] = await Promise.all([agent(s), agent(s), agent(s), agent(s)]);
  expect((await call(s, 'POST', '/v1/spaces', { as: owner, json: { slug: 'crew', closed: true } })).status).toBe(201);
  for (const w of [member, member2]) expect((await join_('crew', w, await invite('crew'))).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await s.stop();
  rmSync(data, { recursive: true, force: true });
});

describe('outcomes of private entries', () => {
  let older: string;
  let newer: string;
  beforeAll(async () => {
    older = await addPrivate(owner, ERR, 'Re-seat ratchet r-5 and torque the zeta press pawl to spec.');
    newer = await addPrivate(owner, ERR, 'Replace the ratchet r-5 spring with the stiffer one.');
  });

  it('members record them on every face; they rank the entry for members as public outcomes would, and show with their notes', async () => {
    const h = errsig(ERR).h;
    // Without outcomes, newest first.
    expect(await hashIds(member, h)).toEqual([newer, older]);
    expect((await lookupIds(member, ERR)).slice(0, 2)).toEqual([newer, older]);
    // REST: worked with changes, with a note.
    const r = await outcome(member, older, { kind: 'worked-with-changes', note: 'had to bleed the press first' });
    expect(r.status).toBe(200);
    expect(r.text.split('\n')[0]).toBe(`ok k/${older} outcome=worked-with-changes new`);
    expect(r.text).toContain('outcomes: worked=0/0 changes=1/');
    // MCP kb_outcome: the same operation.
    const m = await mcp(s, member2);
    try {
      const t = await m.call('kb_outcome', { id: older, kind: 'worked', note: 'fine on the second press' });
      expect(toolText(t).split('\n')[0]).toBe(`ok k/${older} outcome=worked new`);
      expect(t.structuredContent).toMatchObject({ confirms: 2, outcomes: { worked: 1, changes: 1, principals: 2 } });
    } finally {
      await m.close();
    }
    // The confirmed entry now ranks first for members, in /h and in the answer of POST /e.
    expect(await hashIds(member, h)).toEqual([older, newer]);
    expect((await lookupIds(member, ERR)).slice(0, 2)).toEqual([older, newer]);
    // A2A kb.outcome; /fail and /ok record did-not-work and worked in the same table.
    expect(skillText(await skill(s, member, 'kb.outcome', { id: newer, kind: 'did-not-work', note: 'spring snapped again' }))!.split('\n')[0]).toBe(
      `ok k/${newer} outcome=did-not-work new`,
    );
    expect((await call(s, 'POST', `/k/${newer}/fail`, { as: member2 })).text).toMatch(new RegExp(`^ok k/${newer} confirms=0 fails=2 score=-2`));
    expect((await call(s, 'POST', `/k/${newer}/fail`, { as: member2 })).text).toBe('err dup already reported as not working\n');
    expect((await call(s, 'POST', `/k/${older}/ok`, { as: owner })).text).toBe('err dup own entry: others confirm your fixes\n');
    // The member's page of the entry: figures and notes; the lookup lines carry the figures.
    const page = await call(s, 'GET', `/k/${older}`, { as: member2 });
    expect(page.res.headers.get('cache-control')).toBe('private, no-store');
    expect(page.text).toMatch(/^outcomes: worked=1\/[\d.]+ changes=1\/[\d.]+ failed=0\/0 principals=2 disputed=no$/m);
    expect(page.text).toContain('worked with changes:\n  - ');
    expect(page.text).toContain('had to bleed the press first');
    const j = (await (await req(s, 'GET', `/k/${newer}.json`, { as: member })).json()) as { notes: { failed: Array<{ note: string }> }; fails: number };
    expect(j.fails).toBe(2);
    expect(j.notes.failed.map((n) => n.note)).toEqual(['spring snapped again']);
    expect((await call(s, 'GET', `/h/${h}`, { as: member })).text).toMatch(
      new RegExp(`^k/${older} score=2 confirms=2 fails=0 space=s:crew worked=1/[\\d.]+ changes=1/[\\d.]+ failed=0/0 principals=2 disputed=no `, 'm'),
    );
    // The team's export carries the figures.
    const ex = (await (await req(s, 'GET', '/v1/spaces/crew/kb.jsonl', { as: member })).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; outcomes: { failed: number } });
    expect(ex.find((x) => x.id === newer)!.outcomes.failed).toBe(2);
  });

  it('a space entry and a public one of the same signature: outcomes move the space entry past the public one as they would a public entry', async () => {
    const err = 'PawlBindError: pawl p-2 binds on the omega winch';
    const pub = await addPublic(outsider, err, 'Public fix: file the pawl p-2 edge and re-grease it.');
    const priv = await addPrivate(owner, err, 'Team fix: our omega winches take the long pawl p-2.');
    // A tie: the space entry first.
    expect(await hashIds(member, errsig(err).h)).toEqual([priv, pub]);
    expect((await lookupIds(member, err)).slice(0, 2)).toEqual([priv, pub]);
    expect((await outcome(member, priv, { kind: 'did-not-work' })).status).toBe(200);
    expect(await hashIds(member, errsig(err).h)).toEqual([pub, priv]);
    expect((await lookupIds(member, err)).slice(0, 2)).toEqual([pub, priv]);
    // Others see the public entry alone, and its figures did not move.
    expect(await hashIds(outsider, errsig(err).h)).toEqual([pub]);
    expect(((await (await req(s, 'GET', `/k/${pub}.json`)).json()) as { fails: number }).fails).toBe(0);
  });

  it('to a non-member (or anonymous) a private id is unknown on every face, byte for byte, and nothing is recorded', async () => {
    const net = '10.99.7.7';
    const body = { kind: 'did-not-work', note: 'outsider note' };
    const a = await snapshot(await req(s, 'POST', `/k/${older}/outcome`, { as: outsider, net, json: body }));
    const u = await snapshot(await req(s, 'POST', `/k/${UNKNOWN}/outcome`, { as: outsider, net, json: body }));
    expect(a.status).toBe(404);
    expect(Buffer.from(a.body, 'hex').toString()).toBe(Buffer.from(u.body, 'hex').toString().replace(UNKNOWN, older));
    expect(a.headers).toEqual(u.headers);
    // Anonymous: asked for a token first, whatever the id.
    expect((await req(s, 'POST', `/k/${older}/outcome`, { net, json: body })).status).toBe(401);
    expect((await call(s, 'POST', `/k/${older}/outcome`, { as: outsider, json: body })).text).toBe(`err notfound no entry ${older}\n`);
    for (const p of ['ok', 'fail']) {
      const o = await call(s, 'POST', `/k/${older}/${p}`, { as: outsider, net });
      const u = await call(s, 'POST', `/k/${UNKNOWN}/${p}`, { as: outsider, net });
      expect([o.status, o.text]).toEqual([u.status, u.text.replace(UNKNOWN, older)]);
    }
    const m = await mcp(s, outsider);
    try {
      const o = await m.call('kb_outcome', { id: older, kind: 'worked' });
      const u = await m.call('kb_outcome', { id: UNKNOWN, kind: 'worked' });
      expect(o.isError).toBe(true);
      expect(toolText(o)).toBe(toolText(u).replace(UNKNOWN, older));
    } finally {
      await m.close();
    }
    const ao = skillText(await skill(s, outsider, 'kb.outcome', { id: older, kind: 'worked' }));
    const au = skillText(await skill(s, outsider, 'kb.outcome', { id: UNKNOWN, kind: 'worked' }));
    expect(ao).toBe(au!.replace(UNKNOWN, older));
    // Nothing of the outsider's attempts counted.
    const j = (await (await req(s, 'GET', `/k/${older}.json`, { as: member })).json()) as { confirms: number; fails: number };
    expect([j.confirms, j.fails]).toEqual([2, 0]);
    // A removed member's outcome is refused the same way: access ends at once.
    const x = await agent(s);
    expect((await join_('crew', x, await invite('crew'))).status).toBe(200);
    expect((await call(s, 'POST', '/v1/spaces/crew/remove', { as: owner, json: { member: x.id } })).status).toBe(200);
    expect((await outcome(x, older, { kind: 'worked' })).text).toBe(`err notfound no entry ${older}\n`);
  });

  it("a signed outcome (a public conf1 statement) is refused on a private entry; the author's public figures never move", async () => {
    const DOMAIN = 'commons.test';
    const priv = ed.utils.randomSecretKey();
    const pub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
    const idSig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', `${DOMAIN} ${member.id} ${pub}`)), priv)).toString('base64url');
    expect((await call(s, 'PUT', '/v1/key', { as: member, json: { pub, sig: idSig } })).status).toBe(200);
    const sig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('conf1', `${DOMAIN} ${newer} ${member.id} worked`)), priv)).toString('base64url');
    const r = await outcome(member, newer, { kind: 'worked', sig });
    expect([r.status, r.text]).toEqual([400, `err bad sig: a signed outcome is a public statement; k/${newer} is private to s:crew: send it unsigned\n`]);
    expect(((await (await req(s, 'GET', `/k/${newer}.json`, { as: member })).json()) as { confirms: number }).confirms).toBe(0);
    // The owner's entries were confirmed in the space: their public profile shows no reputation from it.
    const prof = (await (await req(s, 'GET', `/a/${owner.id}.json`)).json()) as { rep: number; confirmed: number };
    expect([prof.rep, prof.confirmed]).toEqual([0, 0]);
  });
});

describe('the last owner of a closed space', () => {
  it('cannot leave while it has members or entries, nor be removed; another owner first, or purge and remove the members', async () => {
    const line =
      'err dup last owner of s:crew: promote another owner first (POST /v1/spaces/crew/invite role=owner, joined by a member), or purge the space and remove its members\n';
    const r = await call(s, 'POST', '/v1/spaces/crew/leave', { as: owner });
    expect([r.status, r.text]).toEqual([409, line]);
    const m = await mcp(s, owner);
    try {
      expect(`${toolText(await m.call('space_leave', { slug: 'crew' }))}\n`).toBe(line);
    } finally {
      await m.close();
    }
    // Removing oneself is leaving.
    expect((await call(s, 'POST', '/v1/spaces/crew/remove', { as: owner, json: { member: owner.id } })).text).toBe(
      'err dup that is you: POST /v1/spaces/crew/leave\n',
    );
    expect((await call(s, 'GET', `/k/${(await s.core.store.spaceKb.kbList('crew', 1))[0]!.id}`, { as: owner })).status).toBe(200);
    // A member promoted to owner (an owner's invite raises their role): then either may go, not both.
    expect((await join_('crew', member, await invite('crew', 'owner'))).text).toMatch(/^ok already a member of s:crew/);
    expect((await call(s, 'POST', '/v1/spaces/crew/remove', { as: member, json: { member: owner.id } })).text).toMatch(/^ok removed /);
    expect((await call(s, 'POST', '/v1/spaces/crew/leave', { as: member })).text).toBe(line);
    // An open space's creator leaves as before.
    expect((await call(s, 'POST', '/v1/spaces', { as: owner, json: { slug: 'openboard' } })).status).toBe(201);
    expect((await call(s, 'POST', '/v1/spaces/openboard/leave', { as: owner })).text).toMatch(/^ok left s:openboard members=0\nnext: /);
    // The rule is published where agents look.
    expect(await (await req(s, 'GET', '/help')).text()).toMatch(/^rule space\.owners: .*last owner/m);
  });
});

describe('re-signing at an ErrSig version change', () => {
  const PUSH = (repo: string, branch: string) =>
    `To github.com:${repo}.git\n ! [rejected]        ${branch} -> ${branch} (non-fast-forward)\nerror: failed to push some refs to 'github.com:${repo}.git'\nhint: Updates were rejected because the tip of your current branch is behind`;

  it('private entries stored under v2 are re-signed at start: exact matches for members by text, v3 hash and old v2 hash; still nothing for others', async () => {
    const out = PUSH('crewco/turbine-ctl', 'main');
    const o = v2.errsig(out);
    expect(o.h).not.toBe(errsig(out).h);
    // As a v2 server stored it (its title the v2 signature).
    await s.core.store.spaceKb.kbInsert({
      id: 'kcrewv201',
      space: 'crew',
      sig: o.sig,
      h: o.h,
      ch: o.ch,
      title: o.sig,
      error: out,
      fix: 'Rebase on the remote turbine branch, then push again.',
      eco: 'other',
      cls: '',
      tags: [],
      libs: [],
      author: owner.id,
      created: s.core.now(),
      sigv: 2,
    });
    expect((await s.core.store.spaceKb.kbStaleSigs(ERRSIG_VERSION, 10)).map((r) => r.id)).toEqual(['kcrewv201']);
    await s.close();
    s = await start(ENV, { dir: data });
    expect(await s.core.store.spaceKb.kbStaleSigs(ERRSIG_VERSION, 10)).toEqual([]);
    // Another repository and branch: the same v3 signature, an exact match for a member.
    const other = PUSH('elsewhere/thing', 'release/9');
    const t = await call(s, 'POST', '/e', { as: member2, text: other });
    expect(t.text.split('\n')[0]).toMatch(/ match=exact$/);
    expect(t.text).toContain('k/kcrewv201 ');
    for (const h of [errsig(out).h, o.h]) {
      expect(await hashIds(member2, h)).toEqual(['kcrewv201']);
      expect((await call(s, 'GET', `/h/${h}`, { as: outsider })).status).toBe(404);
    }
    expect((await call(s, 'GET', '/k/kcrewv201.json', { as: member2 })).text).toContain(`"title":${JSON.stringify(errsig(out).sig)}`);
    expect((await call(s, 'POST', '/e', { as: outsider, text: other })).text).not.toContain('kcrewv201');
  });
});
