// Notes: private per identity, encrypted at rest, list with a cursor, search by words, limits.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, call, req, snapshot, type Who } from '../helpers/http.js';
import { mcp } from '../helpers/mcp.js';
import { dbBytes } from '../helpers/db.js';

let s: TestServer;
let alice: Who;
let bob: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  alice = await agent(s);
  bob = await agent(s);
});
afterAll(async () => s.stop());

const create = (as: Who, json: Record<string, unknown>) => call(s, 'POST', '/v1/notes', { as, json, headers: { accept: 'application/json' } });

describe('notes over REST', () => {
  it('create, read, update, delete; text forms', async () => {
    const c = await call(s, 'POST', '/v1/notes?title=Build%20plan', { as: alice, text: 'step one: run the tests\nstep two: ship' });
    expect(c.status).toBe(201);
    const id = /^ok note (n[0-9a-z]{8}) size=38\nnext: GET \/v1\/notes\/n[0-9a-z]{8}; PUT/.exec(c.text)?.[1];
    expect(id).toBeTruthy();

    const g = await call(s, 'GET', `/v1/notes/${id}`, { as: alice });
    expect(g.status).toBe(200);
    expect(g.res.headers.get('cache-control')).toBe('private, no-store');
    const lines = g.text.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^note ${id} created=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ updated=\\S+ size=38$`));
    expect(lines[1]).toBe('title: Build plan');
    expect(lines[2]).toBe(`next: PUT /v1/notes/${id} to change it`);
    expect(lines.slice(4).join('\n')).toBe('step one: run the tests\nstep two: ship\n');

    const u = await call(s, 'PUT', `/v1/notes/${id}`, { as: alice, json: { body: 'step one: done' } });
    expect(u.status).toBe(200);
    expect(u.text).toMatch(new RegExp(`^ok note ${id} size=14 updated=`));
    const j = (await (await req(s, 'GET', `/v1/notes/${id}?f=json`, { as: alice })).json()) as { title: string; body: string };
    expect(j).toMatchObject({ title: 'Build plan', body: 'step one: done' });
    const u2 = await call(s, 'PUT', `/v1/notes/${id}`, { as: alice, json: { title: 'Renamed' } });
    expect(u2.status).toBe(200);
    expect((await (await req(s, 'GET', `/v1/notes/${id}?f=json`, { as: alice })).json()) as { title: string; body: string }).toMatchObject({
      title: 'Renamed',
      body: 'step one: done',
    });
    expect((await call(s, 'PUT', `/v1/notes/${id}`, { as: alice, json: {} })).text).toBe('err bad input: give title or body\n');

    const d = await call(s, 'DELETE', `/v1/notes/${id}`, { as: alice });
    expect(d.text).toBe(`ok deleted ${id}\nnext: GET /v1/notes for the notes left\n`);
    expect((await call(s, 'GET', `/v1/notes/${id}`, { as: alice })).status).toBe(404);
    expect((await call(s, 'DELETE', `/v1/notes/${id}`, { as: alice })).status).toBe(404);
  });

  it('needs a token for every note route', async () => {
    for (const [m, p] of [
      ['POST', '/v1/notes'],
      ['GET', '/v1/notes'],
      ['GET', '/v1/notes/search?q=x'],
      ['GET', '/v1/notes/n12345678'],
      ['PUT', '/v1/notes/n12345678'],
      ['DELETE', '/v1/notes/n12345678'],
    ] as const) {
      const r = await call(s, m, p, { json: m === 'POST' || m === 'PUT' ? { body: 'x' } : undefined });
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(r.text).toMatch(/^err auth token required/);
      expect(r.res.headers.get('www-authenticate')).toMatch(/^Bearer realm="commons", PoW/);
    }
  });

  it('lists newest first, a page at a time with a cursor', async () => {
    const me = await agent(s);
    for (let i = 0; i < 14; i++) expect((await create(me, { title: `u${i}`, body: `x ${i % 10}` })).status).toBe(201);
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const r = (await (
        await req(s, 'GET', `/v1/notes?n=3${cursor ? `&cursor=${cursor}` : ''}`, { as: me, headers: { accept: 'application/json' } })
      ).json()) as { total: number; rows: { id: string; title: string }[]; next: string | null };
      expect(r.total).toBe(14);
      seen.push(...r.rows.map((x) => x.id));
      pages++;
      if (!r.next) break;
      cursor = r.next;
    }
    expect(pages).toBe(5);
    expect(seen).toHaveLength(14);
    expect(new Set(seen).size).toBe(14);
    const t = await call(s, 'GET', '/v1/notes?n=2', { as: me });
    const tl = t.text.trimEnd().split('\n');
    expect(tl[0]).toBe('notes total=14 shown=2');
    expect(tl[1]).toMatch(/^n[0-9a-z]{8} \S+Z size=3 u13$/);
    expect(tl[3]).toMatch(/^next: GET \/v1\/notes\?cursor=/);
    expect((await call(s, 'GET', '/v1/notes?cursor=garbage', { as: me })).text).toBe('err bad cursor: not a cursor from a previous page\n');
    expect((await call(s, 'GET', '/v1/notes?n=51', { as: me })).status).toBe(400);
  });

  it('searches by words (every word, case-insensitive) over title and body', async () => {
    const me = await agent(s);
    const a = JSON.parse((await create(me, { title: 'Postgres tuning', body: 'raise shared_buffers to 25% of RAM' })).text).id as string;
    const b = JSON.parse((await create(me, { title: 'Kernel', body: 'vm.swappiness for POSTGRES hosts: 1' })).text).id as string;
    await create(me, { title: 'Other', body: 'nothing to see' });
    const all = (await (await req(s, 'GET', '/v1/notes/search?q=postgres&f=json', { as: me })).json()) as {
      scanned: number;
      rows: { id: string; excerpt: string }[];
    };
    expect(all.rows.map((r) => r.id).sort()).toEqual([a, b].sort());
    const both = (await (await req(s, 'GET', '/v1/notes/search?q=POSTGRES%20swappiness&f=json', { as: me })).json()) as {
      rows: { id: string; excerpt: string }[];
    };
    expect(both.rows.map((r) => r.id)).toEqual([b]);
    expect(both.rows[0]!.excerpt).toContain('POSTGRES');
    const t = await call(s, 'GET', '/v1/notes/search?q=buffers', { as: me });
    expect(t.text.split('\n')[0]).toBe('notes q=buffers hits=1 scanned=3');
    expect((await call(s, 'GET', '/v1/notes/search?q=zzzznothing', { as: me })).text).toMatch(/^notes q=zzzznothing hits=0 scanned=3\n/);
    // Another identity's search never sees these notes.
    expect(await (await req(s, 'GET', '/v1/notes/search?q=postgres&f=json', { as: bob })).json()).toMatchObject({ rows: [] });
    expect((await call(s, 'GET', `/v1/notes/search?q=${'x'.repeat(201)}`, { as: me })).status).toBe(400);
    expect((await call(s, 'GET', '/v1/notes/search?q=%20%20', { as: me })).text).toBe('err bad q: give at least one word\n');
  });
});

describe('ownership', () => {
  it("no identity reads, changes, lists or deletes another identity's note: the same 404 as an unknown id", async () => {
    const id = JSON.parse((await create(alice, { title: 'mine', body: 'secret plan of alice' })).text).id as string;
    const unknown = await snapshot(await req(s, 'GET', '/v1/notes/nzzzzzzzz', { as: bob }));
    expect(unknown.status).toBe(404);
    expect(Buffer.from(unknown.body, 'hex').toString()).toBe('err notfound\n');
    expect(await snapshot(await req(s, 'GET', `/v1/notes/${id}`, { as: bob }))).toEqual(unknown);
    const putU = await snapshot(await req(s, 'PUT', '/v1/notes/nzzzzzzzz', { as: bob, json: { body: 'x' } }));
    expect(await snapshot(await req(s, 'PUT', `/v1/notes/${id}`, { as: bob, json: { body: 'overwritten' } }))).toEqual(putU);
    const delU = await snapshot(await req(s, 'DELETE', '/v1/notes/nzzzzzzzz', { as: bob }));
    expect(await snapshot(await req(s, 'DELETE', `/v1/notes/${id}`, { as: bob }))).toEqual(delU);
    const list = (await (await req(s, 'GET', '/v1/notes?f=json', { as: bob })).json()) as { rows: { id: string }[] };
    expect(list.rows.map((r) => r.id)).not.toContain(id);
    // Alice's note is untouched.
    expect(((await (await req(s, 'GET', `/v1/notes/${id}?f=json`, { as: alice })).json()) as { body: string }).body).toBe('secret plan of alice');
  });
});

describe('limits', () => {
  it('title at most 120 chars; body at most 16384 bytes of UTF-8 (413 beyond), not empty', async () => {
    expect((await create(alice, { title: 't'.repeat(120), body: 'x' })).status).toBe(201);
    const t = await call(s, 'POST', '/v1/notes', { as: alice, json: { title: 't'.repeat(121), body: 'x' } });
    expect(t.status).toBe(400);
    expect(t.text).toMatch(/^err bad title: /);
    expect((await create(alice, { body: 'b'.repeat(16384) })).status).toBe(201);
    const big = await call(s, 'POST', '/v1/notes', { as: alice, json: { body: 'b'.repeat(16385) } });
    expect(big.status).toBe(413);
    expect(big.text).toBe('err size body over 16384 bytes (16385)\n');
    // Bytes, not characters: 4096 four-byte characters fit, one more does not.
    expect((await create(alice, { body: '😀'.repeat(4096) })).status).toBe(201);
    expect((await call(s, 'POST', '/v1/notes', { as: alice, json: { body: '😀'.repeat(4096) + 'x' } })).status).toBe(413);
    expect((await call(s, 'POST', '/v1/notes', { as: alice, json: { body: '' } })).text).toBe('err bad body: empty\n');
    expect((await call(s, 'POST', '/v1/notes', { as: alice, json: { body: 'x', color: 'red' } })).text).toBe('err bad input: unknown field color\n');
    expect((await call(s, 'GET', '/v1/notes/NOTANID', { as: alice })).status).toBe(400);
  });

  it('frozen writes (operator freeze or maintenance window): 503 err frozen notes; reads and deletes stay open', async () => {
    const id = JSON.parse((await create(alice, { body: 'before the freeze' })).text).id as string;
    const c = s.core.control;
    for (const freeze of [
      () => c.freeze('write', true, 'admin'),
      () => c.freeze('notes', true, 'admin'),
      () => c.addMaintenance({ starts: Date.now(), ends: Date.now() + 60_000, text: 'test window' }),
    ]) {
      await freeze();
      try {
        const r = await call(s, 'POST', '/v1/notes', { as: alice, text: 'during' });
        expect(r.status).toBe(503);
        expect(r.text).toBe('err frozen notes\n');
        expect((await call(s, 'PUT', `/v1/notes/${id}`, { as: alice, text: 'during' })).status).toBe(503);
        expect((await call(s, 'GET', `/v1/notes/${id}`, { as: alice })).status).toBe(200);
      } finally {
        await c.freeze('write', false, 'admin');
        await c.freeze('notes', false, 'admin');
        await c.clearMaintenance();
      }
    }
    expect((await call(s, 'DELETE', `/v1/notes/${id}`, { as: alice })).status).toBe(200);
  });

  it(`an identity holds at most note.max notes`, async () => {
    const t = await start({ CX_TRUST_PROXY: '1', CX_QUOTA_MULT: '100' });
    try {
      const me = await agent(t);
      const url = `${t.url}/v1/notes`;
      const headers = { authorization: `Bearer ${me.token}`, 'content-type': 'text/plain', 'x-forwarded-for': me.net };
      for (let i = 0; i < 1000; i += 50) {
        const rs = await Promise.all(Array.from({ length: 50 }, (_, k) => fetch(url, { method: 'POST', headers, body: `n${i + k}` })));
        expect(rs.every((r) => r.status === 201)).toBe(true);
      }
      const over = await fetch(url, { method: 'POST', headers, body: 'one too many' });
      expect(over.status).toBe(409);
      expect(await over.text()).toBe('err dup at most 1000 notes: delete some first\n');
      const srch = (await (await fetch(`${url}/search?q=n999&f=json`, { headers })).json()) as { scanned: number; rows: unknown[] };
      expect(srch.rows).toHaveLength(1);
    } finally {
      await t.stop();
    }
  });
});

describe('other faces', () => {
  it('MCP: note_create, note_list, note_search, note_get, note_update, note_delete; ownership holds there too', async () => {
    const c = await mcp(s, alice);
    const b = await mcp(s, bob);
    try {
      const made = await c.call('note_create', { title: 'via mcp', body: 'hello from the MCP face' });
      expect(made.isError).toBeFalsy();
      const id = (made.structuredContent as { id: string }).id;
      expect(made.content[0]!.text).toMatch(new RegExp(`^ok note ${id} size=23`));
      expect((await c.call('note_get', { id })).structuredContent).toMatchObject({ id, title: 'via mcp', body: 'hello from the MCP face' });
      expect(((await c.call('note_search', { q: 'mcp face' })).structuredContent as { rows: { id: string }[] }).rows.map((r) => r.id)).toContain(id);
      expect(((await c.call('note_list', { n: 50 })).structuredContent as { rows: { id: string }[] }).rows.map((r) => r.id)).toContain(id);
      expect((await c.call('note_update', { id, body: 'changed' })).structuredContent).toMatchObject({ body: 'changed' });
      const foreign = await b.call('note_get', { id });
      expect(foreign.isError).toBe(true);
      expect(foreign.content[0]!.text).toBe('err notfound');
      expect((await b.call('note_delete', { id })).content[0]!.text).toBe('err notfound');
      expect((await c.call('note_delete', { id })).structuredContent).toEqual({ ok: true, id });
      const big = await c.call('note_create', { body: 'x'.repeat(16385) });
      expect(big.content[0]!.text).toBe('err size body over 16384 bytes (16385)');
    } finally {
      await c.close();
      await b.close();
    }
  });
});

describe('at rest', () => {
  it('the database files hold no note title or body (searched as bytes), live and after close', async () => {
    const t = await start({ CX_TRUST_PROXY: '1' });
    try {
      const me = await agent(t);
      const markers: string[] = [];
      for (let i = 0; i < 12; i++) {
        const title = `TITLE-MARK-${randomBytes(6).toString('hex')}`;
        const body = `BODY-MARK-${randomBytes(6).toString('hex')} ` + 'filler words '.repeat(i * 30);
        markers.push(title, body.slice(0, 30));
        const r = await fetch(`${t.url}/v1/notes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': me.net },
          body: JSON.stringify({ title, body }),
        });
        expect(r.status).toBe(201);
        if (i % 3 === 0) {
          const id = ((await r.json()) as { id: string }).id;
          await fetch(`${t.url}/v1/notes/${id}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json', 'x-forwarded-for': me.net },
            body: JSON.stringify({ body: `${body} UPDATED-MARK` }),
          });
        }
      }
      markers.push('UPDATED-MARK', 'filler words filler');
      const check = () => {
        const files = dbBytes(t.dir);
        expect(files.some((f) => f.includes(Buffer.from(me.id)))).toBe(true); // the search itself works
        for (const f of files) for (const m of markers) expect(f.includes(Buffer.from(m)), m).toBe(false);
      };
      check();
      await t.close();
      check();
    } finally {
      await t.stop();
    }
  });
});
