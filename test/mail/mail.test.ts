// Mail: send, inbox with cursor, read, delete, report; ownership, scrubbing, limits, quota,
// encryption at rest, the MCP face.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';
import { agent, call, req, snapshot, type Who } from '../helpers/http.js';
import { mcp } from '../helpers/mcp.js';
import { dbBytes } from '../helpers/db.js';

let s: TestServer;
let alice: Who;
let bob: Who;
let eve: Who;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
  alice = await agent(s);
  bob = await agent(s);
  eve = await agent(s);
});
afterAll(async () => s.stop());

const DATE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ';
const send = (from: Who, json: Record<string, unknown>) => call(s, 'POST', '/v1/mail', { as: from, json });
async function sendId(from: Who, json: Record<string, unknown>): Promise<string> {
  const r = await send(from, json);
  expect(r.status, r.text).toBe(201);
  return /^ok mail (m[0-9a-z]{10}) /.exec(r.text)![1]!;
}
const reports = (dir: string) => {
  const db = new Database(join(dir, 'commons.db'), { readonly: true });
  try {
    return db.prepare('SELECT msg, reporter, sender, reason, status FROM mail_reports ORDER BY id').all() as Array<Record<string, string>>;
  } finally {
    db.close();
  }
};

describe('send, inbox, read, delete', () => {
  it('a message reaches only its recipient; read marks it read; delete removes it', async () => {
    const r = await send(alice, { to: bob.id, subject: 'hello', body: 'can you review k/abc?' });
    expect(r.status).toBe(201);
    expect(r.text).toMatch(new RegExp(`^ok mail m[0-9a-z]{10} to=${bob.id} size=21\\nnext: GET /v1/mail for your own inbox\\n$`));
    const id = /^ok mail (\S+)/.exec(r.text)![1]!;

    const inbox = await call(s, 'GET', '/v1/mail', { as: bob });
    const lines = inbox.text.trimEnd().split('\n');
    expect(lines[0]).toBe('inbox total=1 unread=1 shown=1');
    expect(lines[1]).toMatch(new RegExp(`^${id} from=${alice.id} ${DATE} size=21 new hello$`));
    expect(lines[2]).toBe(`next: GET /v1/mail/${id}`);

    const m = await call(s, 'GET', `/v1/mail/${id}`, { as: bob });
    expect(m.status).toBe(200);
    expect(m.res.headers.get('cache-control')).toBe('private, no-store');
    expect(m.text).toMatch(
      new RegExp(
        `^mail ${id} from=${alice.id} to=${bob.id} ${DATE} size=21 untrusted\\nsubject: hello\\nnext: DELETE /v1/mail/${id} when done; POST /v1/mail/${id}/report if it is abuse\\n\\ncan you review k/abc\\?\\n$`,
      ),
    );
    expect((await call(s, 'GET', '/v1/mail', { as: bob })).text).toMatch(/^inbox total=1 unread=0 shown=1\n\S+ from=\S+ \S+ size=21 read hello\n/);

    // The sender has no access to the recipient's copy.
    expect((await call(s, 'GET', `/v1/mail/${id}`, { as: alice })).status).toBe(404);
    expect((await call(s, 'GET', '/v1/mail', { as: alice })).text).toMatch(/^inbox total=0 /);

    expect((await call(s, 'DELETE', `/v1/mail/${id}`, { as: bob })).text).toBe(`ok deleted ${id}\nnext: GET /v1/mail for the messages left\n`);
    expect((await call(s, 'GET', `/v1/mail/${id}`, { as: bob })).status).toBe(404);
    expect((await call(s, 'DELETE', `/v1/mail/${id}`, { as: bob })).status).toBe(404);
  });

  it('text bodies: POST /v1/mail?to=…&subject=… with text/plain', async () => {
    const r = await call(s, 'POST', `/v1/mail?to=${bob.id}&subject=plain`, { as: alice, text: 'line 1\nline 2' });
    expect(r.status).toBe(201);
    const id = /^ok mail (\S+)/.exec(r.text)![1]!;
    expect((await (await req(s, 'GET', `/v1/mail/${id}?f=json`, { as: bob })).json()) as { body: string; subject: string }).toMatchObject({
      subject: 'plain',
      body: 'line 1\nline 2',
    });
  });

  it('inbox pages newest first with a cursor; unread=1 filters', async () => {
    const me = await agent(s);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await sendId(alice, { to: me.id, subject: `s${i}`, body: `b${i}` }));
    await call(s, 'GET', `/v1/mail/${ids[6]}`, { as: me });
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const p = (await (await req(s, 'GET', `/v1/mail?n=3&f=json${cursor ? `&cursor=${cursor}` : ''}`, { as: me })).json()) as {
        total: number;
        unread: number;
        rows: { id: string }[];
        next: string | null;
      };
      expect(p.total).toBe(7);
      expect(p.unread).toBe(6);
      seen.push(...p.rows.map((r) => r.id));
      if (!p.next) break;
      cursor = p.next;
    }
    expect(seen).toEqual([...ids].reverse());
    const unread = (await (await req(s, 'GET', '/v1/mail?unread=1&n=50&f=json', { as: me })).json()) as { rows: { id: string }[] };
    expect(unread.rows.map((r) => r.id)).toEqual(ids.slice(0, 6).reverse());
  });
});

describe('ownership', () => {
  it("no identity reads, deletes or reports another's message: the same 404 as an unknown id", async () => {
    const id = await sendId(alice, { to: bob.id, body: 'for bob only' });
    for (const [m, p] of [
      ['GET', `/v1/mail/${id}`],
      ['DELETE', `/v1/mail/${id}`],
      ['POST', `/v1/mail/${id}/report`],
    ] as const) {
      const other = await snapshot(await req(s, m, p, { as: eve, json: m === 'POST' ? {} : undefined }));
      const unknown = await snapshot(await req(s, m, p.replace(id, 'mzzzzzzzzzz'), { as: eve, json: m === 'POST' ? {} : undefined }));
      expect(other.status, `${m} ${p}`).toBe(404);
      expect(other).toEqual(unknown);
    }
    expect((await (await req(s, 'GET', '/v1/mail?f=json', { as: eve })).json()) as { rows: unknown[] }).toMatchObject({ rows: [] });
    expect(((await (await req(s, 'GET', `/v1/mail/${id}?f=json`, { as: bob })).json()) as { body: string }).body).toBe('for bob only');
    for (const [m, p] of [
      ['POST', '/v1/mail'],
      ['GET', '/v1/mail'],
      ['GET', `/v1/mail/${id}`],
      ['DELETE', `/v1/mail/${id}`],
      ['POST', `/v1/mail/${id}/report`],
    ] as const) {
      expect((await req(s, m, p, { json: m === 'POST' ? { to: bob.id, body: 'x' } : undefined })).status, `${m} ${p}`).toBe(401);
    }
  });
});

describe('reports', () => {
  it('a recipient reports a message: stored with a locator and the sender, no plaintext; the ciphertext outlives a delete', async () => {
    const t = await start({ CX_TRUST_PROXY: '1' });
    try {
      const a = await agent(t);
      const b = await agent(t);
      const body = `SPAM-MARK-${randomBytes(6).toString('hex')} buy now`;
      const sent = await fetch(`${t.url}/v1/mail`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': a.net },
        body: JSON.stringify({ to: b.id, body }),
      });
      const id = ((await sent.json()) as { id: string }).id;
      const rep = await fetch(`${t.url}/v1/mail/${id}/report`, {
        method: 'POST',
        headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json', 'x-forwarded-for': b.net },
        body: JSON.stringify({ reason: 'unsolicited advertising' }),
      });
      expect(rep.status).toBe(201);
      expect(await rep.text()).toBe(`ok reported ${id} from=${a.id}\nnext: DELETE /v1/mail/${id} removes it from your inbox\n`);
      const again = await fetch(`${t.url}/v1/mail/${id}/report`, { method: 'POST', headers: { authorization: `Bearer ${b.token}`, 'x-forwarded-for': b.net } });
      expect(again.status).toBe(409);
      expect(await again.text()).toBe(`err dup already reported ${id}\n`);
      expect(reports(t.dir)).toEqual([{ msg: id, reporter: b.id, sender: a.id, reason: 'unsolicited advertising', status: 'open' }]);
      // The recipient deletes it: gone from the inbox, the sealed row stays for the review.
      expect(
        (await fetch(`${t.url}/v1/mail/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${b.token}`, 'x-forwarded-for': b.net } })).status,
      ).toBe(200);
      expect((await fetch(`${t.url}/v1/mail/${id}`, { headers: { authorization: `Bearer ${b.token}`, 'x-forwarded-for': b.net } })).status).toBe(404);
      const db = new Database(join(t.dir, 'commons.db'), { readonly: true });
      const row = db.prepare('SELECT deleted, reported, length(ct) AS n FROM mail WHERE id = ?').get(id) as { deleted: number; reported: number; n: number };
      db.close();
      expect(row).toEqual({ deleted: 1, reported: 1, n: Buffer.byteLength(JSON.stringify({ s: '', b: body })) + 16 });
      for (const f of dbBytes(t.dir)) expect(f.includes(Buffer.from(body.slice(0, 20)))).toBe(false);
      expect(
        (
          await fetch(`${t.url}/v1/mail/${id}/report`, {
            method: 'POST',
            headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json', 'x-forwarded-for': b.net },
            body: JSON.stringify({ reason: 'r'.repeat(301) }),
          })
        ).status,
      ).toBe(400);
    } finally {
      await t.stop();
    }
  });
});

describe('limits', () => {
  it('body at most 16384 bytes (413), subject at most 120 chars, recipient must exist, scrubbed', async () => {
    expect((await send(alice, { to: bob.id, body: 'b'.repeat(16384) })).status).toBe(201);
    const big = await send(alice, { to: bob.id, body: 'b'.repeat(16385) });
    expect(big.status).toBe(413);
    expect(big.text).toBe('err size body over 16384 bytes (16385)\n');
    expect((await send(alice, { to: bob.id, body: 'é'.repeat(8192) })).status).toBe(201);
    expect((await send(alice, { to: bob.id, body: 'é'.repeat(8192) + 'x' })).status).toBe(413);
    expect((await send(alice, { to: bob.id, subject: 's'.repeat(120), body: 'x' })).status).toBe(201);
    expect((await send(alice, { to: bob.id, subject: 's'.repeat(121), body: 'x' })).text).toMatch(/^err bad subject: /);
    expect((await send(alice, { to: bob.id, body: '' })).text).toBe('err bad body: empty\n');
    expect((await send(alice, { to: 'a000000', body: 'x' })).text).toBe('err notfound no agent a000000\n');
    expect((await send(alice, { to: 'bob', body: 'x' })).text).toBe('err bad to: want an agent id (a + 6 chars)\n');
    expect((await send(alice, { to: bob.id, body: 'my key ghp_0123456789abcdefghijklmnopqrstuvwxyzAB ok' })).text).toBe('err scrub github body@7\n');
    expect((await send(alice, { to: bob.id, subject: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', body: 'x' })).text).toBe('err scrub github subject@0\n');
  });

  it("sending is quota'd: 30 messages per hour per L0 identity, then 429 with Retry-After", async () => {
    const t = await start({ CX_TRUST_PROXY: '1' });
    try {
      const a = await agent(t);
      const b = await agent(t);
      const headers = { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-forwarded-for': a.net };
      const rs = await Promise.all(
        Array.from({ length: 30 }, (_, i) => fetch(`${t.url}/v1/mail`, { method: 'POST', headers, body: JSON.stringify({ to: b.id, body: `m${i}` }) })),
      );
      expect(rs.map((r) => r.status)).toEqual(Array(30).fill(201));
      const over = await fetch(`${t.url}/v1/mail`, { method: 'POST', headers, body: JSON.stringify({ to: b.id, body: 'one more' }) });
      expect(over.status).toBe(429);
      expect(await over.text()).toMatch(/^err quota mail retry in \d+s\n$/);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await t.stop();
    }
  });

  it('an inbox holds at most mail.inbox messages', async () => {
    const t = await start({ CX_TRUST_PROXY: '1', CX_QUOTA_MULT: '100' });
    try {
      const a = await agent(t);
      const b = await agent(t);
      const headers = { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-forwarded-for': a.net };
      for (let i = 0; i < 1000; i += 100) {
        const rs = await Promise.all(
          Array.from({ length: 100 }, (_, k) => fetch(`${t.url}/v1/mail`, { method: 'POST', headers, body: JSON.stringify({ to: b.id, body: `m${i + k}` }) })),
        );
        expect(rs.every((r) => r.status === 201)).toBe(true);
      }
      const over = await fetch(`${t.url}/v1/mail`, { method: 'POST', headers, body: JSON.stringify({ to: b.id, body: 'full' }) });
      expect(over.status).toBe(409);
      expect(await over.text()).toBe(`err dup inbox of ${b.id} is full (1000 messages)\n`);
    } finally {
      await t.stop();
    }
  });
});

describe('at rest', () => {
  it('the database files hold no subject or body (searched as bytes), live and after close', async () => {
    const t = await start({ CX_TRUST_PROXY: '1' });
    try {
      const a = await agent(t);
      const b = await agent(t);
      const markers: string[] = [];
      for (let i = 0; i < 12; i++) {
        const subject = `SUBJ-MARK-${randomBytes(6).toString('hex')}`;
        const body = `MAIL-MARK-${randomBytes(6).toString('hex')} ` + 'mail words '.repeat(i * 30);
        markers.push(subject, body.slice(0, 30));
        const r = await fetch(`${t.url}/v1/mail`, {
          method: 'POST',
          headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', 'x-forwarded-for': a.net },
          body: JSON.stringify({ to: b.id, subject, body }),
        });
        expect(r.status).toBe(201);
      }
      markers.push('mail words mail');
      const inbox = await (await fetch(`${t.url}/v1/mail?n=50`, { headers: { authorization: `Bearer ${b.token}`, 'x-forwarded-for': b.net } })).text();
      expect(inbox).toContain(markers[0]); // decrypts for its recipient
      const check = () => {
        const files = dbBytes(t.dir);
        expect(files.some((f) => f.includes(Buffer.from(b.id)))).toBe(true);
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

describe('other faces', () => {
  it('MCP: mail_send, mail_inbox, mail_read, mail_report, mail_delete; foreign ids are 404 there too', async () => {
    const a = await mcp(s, alice);
    const b = await mcp(s, bob);
    const e = await mcp(s, eve);
    try {
      const sent = await a.call('mail_send', { to: bob.id, subject: 'mcp', body: 'sent over MCP' });
      expect(sent.isError).toBeFalsy();
      const id = (sent.structuredContent as { id: string }).id;
      expect(((await b.call('mail_inbox', { n: 50 })).structuredContent as { rows: { id: string }[] }).rows.map((r) => r.id)).toContain(id);
      const m = await b.call('mail_read', { id });
      expect(m.structuredContent).toMatchObject({ id, from: alice.id, subject: 'mcp', body: 'sent over MCP' });
      expect(m.content[0]!.text).toMatch(new RegExp(`^mail ${id} from=${alice.id} to=${bob.id} `));
      expect((await e.call('mail_read', { id })).content[0]!.text).toBe('err notfound');
      expect((await b.call('mail_report', { id, reason: 'testing' })).structuredContent).toEqual({ id, from: alice.id });
      expect((await b.call('mail_delete', { id })).structuredContent).toEqual({ ok: true, id });
    } finally {
      await a.close();
      await b.close();
      await e.close();
    }
  });
});
