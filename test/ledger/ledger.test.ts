// Credit ledger through the real server: starting grants, balances, the operator mint, the
// conservation audit, and conservation after a randomized sequence of bounty operations.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, get, line, post, type Who } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';

let s: TestServer;
let alice: Who;
let bob: Who;

beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  [alice, bob] = await Promise.all([agent(s, 'alice'), agent(s, 'bob')]);
});
afterAll(async () => s.stop());

interface Credits {
  id: string;
  balance: number;
  escrowed: number;
  postings: Array<{ tx: number; kind: string; ref: string | null; amount: number; date: string }>;
}
const credits = async (who: Who) => (await (await get(s, '/v1/credits', who, { accept: 'application/json' })).json()) as Credits;
const admin = (path: string, body: unknown, token: string | null) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
interface Audit {
  ok: boolean;
  minted: number;
  held: number;
  escrow: number;
  problems: string[];
}
const audit = async () =>
  (await (
    await fetch(`${s.url}/admin/audit`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}`, accept: 'application/json' } })
  ).json()) as Audit;

/** Credits minted so far by this file: starting grants plus operator mints. */
let expectedMinted = 0;
const START = 100;

describe('balances', () => {
  it('registration grants the starting credits from the mint; GET /v1/credits shows them', async () => {
    expectedMinted += 2 * START;
    const r = await get(s, '/v1/credits', alice);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const lines = (await line(r)).split('\n');
    expect(lines[0]).toBe(`credits ${alice.id} balance=${START} escrowed=0`);
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\+${START} grant tx=\\d+$`));
    expect(lines.at(-1)).toMatch(/^next: /);
    const j = await credits(bob);
    expect(j).toMatchObject({ id: bob.id, balance: START, escrowed: 0, postings: [{ kind: 'grant', amount: START, ref: bob.id }] });
    const limits = (await (await get(s, '/limits.json')).json()) as { limits: Array<{ key: string; value: number }> };
    expect(limits.limits.find((l) => l.key === 'credits.start')?.value).toBe(START);
  });

  it('needs a token; n is bounded; the same read over MCP', async () => {
    const anon = await get(s, '/v1/credits');
    expect(anon.status).toBe(401);
    expect(await line(await get(s, '/v1/credits?n=51', alice))).toMatch(/^err bad n: /);
    expect(await line(await get(s, '/v1/credits?n=0', alice))).toMatch(/^err bad n: /);
    const m = await mcp(s, alice);
    try {
      const r = await m.call('credits_show', { n: 5 });
      expect(r.isError).toBeFalsy();
      expect(toolText(r)).toMatch(new RegExp(`^credits ${alice.id} balance=${START} escrowed=0\n`));
      expect(r.structuredContent).toMatchObject({ id: alice.id, balance: START });
    } finally {
      await m.close();
    }
  });
});

describe('operator mint and audit', () => {
  it('POST /admin/credits mints to an identity (admin token only), with limits', async () => {
    const { admin: adm, poll, ops } = s.config.operatorTokens;
    expect((await admin('/admin/credits', { id: alice.id, n: 5 }, null)).status).toBe(401);
    for (const t of [poll, ops, alice.token]) {
      const r = await admin('/admin/credits', { id: alice.id, n: 5 }, t);
      expect(r.status).toBe(401);
    }
    expect(await line(await admin('/admin/credits', { id: alice.id, n: 5 }, poll))).toBe('err auth admin');
    for (const [body, re] of [
      [{ id: 'a1234567', n: 5 }, /^err bad id: /],
      [{ id: 'x12', n: 5 }, /^err bad id: /],
      [{ id: alice.id, n: 10_000_001 }, /^err bad n: /],
      [{ id: alice.id, n: 0 }, /^err bad n: /],
      [{ id: alice.id, n: 2.5 }, /^err bad n: /],
      [{ id: alice.id }, /^err bad n: required$/],
    ] as const) {
      const r = await admin('/admin/credits', body, adm);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(await line(r)).toMatch(re);
    }
    const unknown = await admin('/admin/credits', { id: 'a000000', n: 5 }, adm);
    expect(unknown.status).toBe(404);
    expect(await line(unknown)).toBe('err notfound no identity a000000');
    expect((await credits(alice)).balance).toBe(START);

    const ok = await admin('/admin/credits', { id: alice.id, n: 10_000_000 }, adm);
    expect(ok.status).toBe(200);
    expect(await line(ok)).toMatch(new RegExp(`^ok minted 10000000 to ${alice.id} balance=${START + 10_000_000} tx=\\d+\\nnext: GET /admin/audit$`));
    expectedMinted += 10_000_000;
    expect((await credits(alice)).postings[0]).toMatchObject({ kind: 'mint', amount: 10_000_000 });
  });

  it('GET /admin/audit (poll token) reports ok with the totals', async () => {
    expect((await fetch(`${s.url}/admin/audit`)).status).toBe(401);
    expect((await fetch(`${s.url}/admin/audit`, { headers: { authorization: `Bearer ${alice.token}` } })).status).toBe(401);
    const r = await fetch(`${s.url}/admin/audit`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } });
    expect(r.status).toBe(200);
    expect(await line(r)).toBe(
      `ok audit accounts=3 txs=3 minted=${expectedMinted} held=${expectedMinted} escrow=0 problems=0\nnext: GET /admin/stats for the rest of the service`,
    );
  });
});

/** Deterministic PRNG (mulberry32) so a failing sequence can be replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! };
}

describe('conservation', () => {
  it('after a randomized sequence of bounty operations, nothing is created or lost and no balance is negative', async () => {
    const seed = Number(process.env.CX_LEDGER_SEED ?? Date.now() % 1_000_000);
    const rnd = prng(seed);
    const who = await Promise.all(Array.from({ length: 8 }, (_, i) => agent(s, `hunter${i}`)));
    expectedMinted += who.length * START;
    // The model: what each identity should hold, and each task as the server should have it.
    const bal = new Map(who.map((w) => [w.id, START]));
    const tasks: Array<{ id: string; bounty: string | null; credits: number; creator: Who; state: string; claimant: Who | null }> = [];
    const statuses = new Map<string, number>();
    const count = (k: string) => statuses.set(k, (statuses.get(k) ?? 0) + 1);

    // At least 160 steps, and on until a bounty was paid, refunded and refused (at most 360 steps:
    // within the per-identity write quota).
    const seen = () => ['accept 200', 'cancel 200', 'create 409'].every((k) => statuses.has(k));
    for (let step = 0; step < 360 && (step < 160 || !seen()); step++) {
      let actor = rnd.pick(who);
      const roll = rnd.next();
      if (roll < 0.25 || tasks.length === 0) {
        // Sometimes ask for more than the balance: must be 409 and move nothing.
        const want = rnd.int(3) === 0 ? 0 : 1 + rnd.int(bal.get(actor.id)! + 15);
        const r = await post(s, '/v1/tasks', actor, { title: `random task ${step}`, ...(want ? { bounty: want } : {}) }, { accept: 'application/json' });
        count(`create ${r.status}`);
        if (r.status === 201) {
          const t = (await r.json()) as { id: string; bounty: { id: string } | null };
          tasks.push({ id: t.id, bounty: t.bounty?.id ?? null, credits: want, creator: actor, state: 'open', claimant: null });
          bal.set(actor.id, bal.get(actor.id)! - want);
        } else {
          expect(r.status, `seed ${seed} step ${step}`).toBe(409);
          expect(want).toBeGreaterThan(bal.get(actor.id)!);
        }
        continue;
      }
      const t = rnd.pick(tasks);
      if (roll > 0.97 && t.bounty) {
        // The operator pays a random identity.
        const hunter = rnd.pick(who);
        const r = await admin(`/admin/bounty/${t.bounty}/accept`, { hunter: hunter.id }, s.config.operatorTokens.ops);
        count(`admin ${r.status}`);
        const held = ['open', 'claimed', 'done'].includes(t.state);
        expect(r.status, `seed ${seed} step ${step}`).toBe(!held ? 409 : hunter.id === t.creator.id ? 400 : 200);
        if (r.status === 200) {
          bal.set(hunter.id, bal.get(hunter.id)! + t.credits);
          t.state = 'accepted';
        }
        continue;
      }
      if (roll > 0.94) {
        const n = 1 + rnd.int(500);
        const r = await admin('/admin/credits', { id: actor.id, n }, s.config.operatorTokens.admin);
        expect(r.status).toBe(200);
        bal.set(actor.id, bal.get(actor.id)! + n);
        expectedMinted += n;
        continue;
      }
      // Half the time an action the task's state allows, by the identity entitled to it: otherwise
      // random tasks and actors would almost never get a bounty paid.
      const fitting = { open: ['claim', 'cancel'], claimed: ['release', 'done'], done: ['accept', 'reject'] }[t.state as 'open'] as Array<'claim'> | undefined;
      const sensible = fitting && rnd.next() < 0.6;
      const action = sensible ? rnd.pick(fitting) : rnd.pick(['claim', 'release', 'done', 'accept', 'reject', 'cancel'] as const);
      if (sensible && rnd.next() < 0.8) {
        if (['release', 'done'].includes(action)) actor = t.claimant!;
        else if (action === 'claim') actor = rnd.pick(who.filter((w) => w.id !== t.creator.id));
        else actor = t.creator;
      }
      const r = await post(s, `/v1/tasks/${t.id}/${action}`, actor, action === 'done' ? { result: `result ${step}` } : undefined);
      count(`${action} ${r.status}`);
      // The model's verdict, state first, then ownership.
      const allowed: Record<string, string> = { claim: 'open', release: 'claimed', done: 'claimed', accept: 'done', reject: 'done', cancel: 'open' };
      const owner = {
        claim: actor.id !== t.creator.id,
        release: actor.id === t.claimant?.id,
        done: actor.id === t.claimant?.id,
        accept: actor.id === t.creator.id,
        reject: actor.id === t.creator.id,
        cancel: actor.id === t.creator.id,
      }[action];
      const expected = t.state !== allowed[action] ? 409 : owner ? 200 : 403;
      expect(r.status, `seed ${seed} step ${step} ${action} on ${t.state}: ${await r.clone().text()}`).toBe(expected);
      if (r.status !== 200) continue;
      if (action === 'claim') Object.assign(t, { state: 'claimed', claimant: actor });
      if (action === 'release') Object.assign(t, { state: 'open', claimant: null });
      if (action === 'done') t.state = 'done';
      if (action === 'reject') t.state = 'claimed';
      if (action === 'accept') {
        t.state = 'accepted';
        bal.set(t.claimant!.id, bal.get(t.claimant!.id)! + t.credits);
      }
      if (action === 'cancel') {
        t.state = 'cancelled';
        bal.set(t.creator.id, bal.get(t.creator.id)! + t.credits);
      }
    }
    // A walk that paid, refunded or refused no bounty within 360 steps (a few seeds do: 358475) ends
    // with one of each it missed, by the same rules and through the same model.
    const richest = () => who.reduce((a, b) => (bal.get(a.id)! >= bal.get(b.id)! ? a : b));
    for (const finish of ['accept', 'cancel'] as const) {
      if (statuses.has(`${finish} 200`)) continue;
      const creator = richest();
      expect(bal.get(creator.id)!, `seed ${seed}`).toBeGreaterThan(0);
      const r = await post(s, '/v1/tasks', creator, { title: `final ${finish}`, bounty: 1 }, { accept: 'application/json' });
      expect(r.status, `seed ${seed} final ${finish}`).toBe(201);
      count('create 201');
      const created = (await r.json()) as { id: string; bounty: { id: string } | null };
      const t = { id: created.id, bounty: created.bounty?.id ?? null, credits: 1, creator, state: 'open', claimant: null as Who | null };
      tasks.push(t);
      bal.set(creator.id, bal.get(creator.id)! - 1);
      if (finish === 'cancel') {
        expect((await post(s, `/v1/tasks/${t.id}/cancel`, creator)).status, `seed ${seed} final cancel`).toBe(200);
        t.state = 'cancelled';
        bal.set(creator.id, bal.get(creator.id)! + 1);
      } else {
        const hunter = who.find((w) => w.id !== creator.id)!;
        expect((await post(s, `/v1/tasks/${t.id}/claim`, hunter)).status, `seed ${seed} final claim`).toBe(200);
        expect((await post(s, `/v1/tasks/${t.id}/done`, hunter, { result: 'final' })).status, `seed ${seed} final done`).toBe(200);
        expect((await post(s, `/v1/tasks/${t.id}/accept`, creator)).status, `seed ${seed} final accept`).toBe(200);
        Object.assign(t, { state: 'accepted', claimant: hunter });
        bal.set(hunter.id, bal.get(hunter.id)! + 1);
      }
      count(`${finish} 200`);
    }
    if (!statuses.has('create 409')) {
      const actor = richest();
      const r = await post(s, '/v1/tasks', actor, { title: 'final over the balance', bounty: bal.get(actor.id)! + 1 }, { accept: 'application/json' });
      expect(r.status, `seed ${seed} final refusal`).toBe(409);
      count('create 409');
    }
    // Every kind of step happened, failures included.
    const kinds = [...statuses.keys()].join(' ');
    expect(kinds, `seed ${seed}`).toMatch(/create 201/);
    // The seed in every message: a failure reruns with CX_LEDGER_SEED=<seed>.
    expect(kinds, `seed ${seed}`).toMatch(/ 409/);
    expect(kinds, `seed ${seed}`).toMatch(/ 403/);
    expect(kinds, `seed ${seed}`).toMatch(/accept 200/);
    expect(kinds, `seed ${seed}`).toMatch(/cancel 200/);

    // Balances as the server reports them match the model exactly and are never negative.
    let held = 0;
    for (const w of who) {
      const c = await credits(w);
      expect(c.balance, `seed ${seed} ${w.id}`).toBe(bal.get(w.id));
      expect(c.balance).toBeGreaterThanOrEqual(0);
      held += c.balance;
      const escrowed = tasks
        .filter((t) => t.creator.id === w.id && t.bounty && ['open', 'claimed', 'done'].includes(t.state))
        .reduce((n, t) => n + t.credits, 0);
      expect(c.escrowed).toBe(escrowed);
    }
    // Task states as the server reports them match the model.
    for (const t of tasks) expect((await (await get(s, `/v1/tasks/${t.id}.json`)).json()).state).toBe(t.state);
    // Escrow still held by unresolved bounties, seen through the public task list.
    let escrow = 0;
    for (const w of who) {
      const l = (await (await get(s, `/v1/tasks?by=${w.id}&state=all&n=50&f=json`)).json()) as {
        rows: Array<{ bounty: { credits: number; state: string } | null }>;
      };
      escrow += l.rows.filter((r) => r.bounty?.state === 'held').reduce((n, r) => n + r.bounty!.credits, 0);
    }
    const others = (await credits(alice)).balance + (await credits(bob)).balance;
    // Sum over all accounts = total minted.
    expect(held + escrow + others, `seed ${seed}`).toBe(expectedMinted);
    const a = await audit();
    expect(a, `seed ${seed}`).toMatchObject({ ok: true, problems: [], minted: expectedMinted, escrow, held: held + others });
  });

  it('concurrent claims and accepts: exactly one wins, the bounty is paid once', async () => {
    const [c, ...hunters] = await Promise.all(Array.from({ length: 5 }, (_, i) => agent(s, `racer${i}`)));
    expectedMinted += 5 * START;
    const t = (await (await post(s, '/v1/tasks', c, { title: 'Race for it', bounty: 60 }, { accept: 'application/json' })).json()) as { id: string };
    const claims = await Promise.all(hunters.map((h) => post(s, `/v1/tasks/${t.id}/claim`, h)));
    expect(claims.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = hunters[claims.findIndex((r) => r.status === 200)]!;
    await post(s, `/v1/tasks/${t.id}/done`, winner, { result: 'won' });
    const accepts = await Promise.all([1, 2, 3].map(() => post(s, `/v1/tasks/${t.id}/accept`, c!)));
    expect(accepts.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await credits(winner)).balance).toBe(START + 60);
    expect((await credits(c!)).balance).toBe(START - 60);
    expect(await audit()).toMatchObject({ ok: true, minted: expectedMinted });
  });

  it('the audit reports a discrepancy when the books are tampered with', async () => {
    const db = new Database(join(s.dir, 'commons.db'));
    try {
      db.prepare('UPDATE ledger_accounts SET balance = balance + 7 WHERE id = ?').run(bob.id);
      const r = await fetch(`${s.url}/admin/audit`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } });
      expect(r.status).toBe(200);
      const lines = (await line(r)).split('\n');
      expect(lines[0]).toMatch(/^fail audit accounts=\d+ txs=\d+ minted=\d+ held=\d+ escrow=\d+ problems=2$/);
      expect(lines).toContain(`account ${bob.id} balance ${START + 7} but postings sum to ${START}`);
      const now = await audit();
      expect(now.held).toBe(expectedMinted - now.escrow + 7);
      expect(lines).toContain(`held ${now.held} + escrow ${now.escrow} = ${now.held + now.escrow} but minted ${expectedMinted}`);
      // An unbalanced transaction is named too.
      const tx = Number(db.prepare("INSERT INTO ledger_tx (kind, ref, created) VALUES ('mint', NULL, 0)").run().lastInsertRowid);
      db.prepare('INSERT INTO ledger_postings (tx, account, amount) VALUES (?, ?, 3)').run(tx, bob.id);
      const a = await audit();
      expect(a.ok).toBe(false);
      expect(a.problems).toContain(`tx ${tx} has 1 postings`);
      // A balance below zero cannot even be written.
      expect(() => db.prepare('UPDATE ledger_accounts SET balance = -1 WHERE id = ?').run(alice.id)).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });
});
