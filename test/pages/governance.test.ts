// Status, governance and receipt pages in headless Chromium: /status, /st/{target}, /gov, the
// proposal list and a proposal page (/v1/p, /v1/p/{id}), and a replication receipt (/att/{job}),
// at phone and desktop width (screenshots in docs/screenshots/): no overflow, no word broken
// mid-word, no console error, key text visible, no serious axe violation, readable with
// JavaScript off. Published text (announcements, freeze notes, proposals, receipts) carrying
// markup is shown as text and never runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptHtml } from '../../src/rest/receipts.js';
import { agent, req, type Who } from '../helpers/http.js';
import { start, type TestServer } from '../helpers/server.js';
import { axe, check, type Chrome, HAS_CHROMIUM, launch, layout, openTab, shot, SKIP_REASON, type Width } from './browser.js';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

const WIDTHS: Width[] = ['phone', 'desktop'];
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> "quoted" & 'single'`;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe.skipIf(!HAS_CHROMIUM)('status, governance and receipt pages in headless Chromium', () => {
  let s: TestServer;
  let chrome: Chrome;
  let author: Who;
  let plainId: string;
  let hostileId: string;
  let plannedId: string;
  let jobId: string;

  const admin = (path: string, json: unknown) => req(s, 'POST', path, { json, headers: { authorization: `Bearer ${s.config.operatorTokens.admin}` } });

  beforeAll(async () => {
    s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB and services
    chrome = await launch();
    author = await agent(s, 'proposer');
    // The open data the footer links to, as the daily jobs leave it.
    expect((await req(s, 'POST', '/admin/export', { headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } })).status).toBe(200);
    await s.core.mirror!.sync();
    // Announcements: a maintenance window tomorrow and an incident whose text carries markup.
    const day = 86_400_000;
    const t0 = Math.floor(Date.now() / 60_000) * 60_000;
    expect(
      (
        await admin('/admin/announce', {
          kind: 'maintenance',
          starts: iso(t0 + day),
          ends: iso(t0 + day + 7_200_000),
          text: 'Database upgrade: writes pause for two hours',
        })
      ).status,
    ).toBe(200);
    const inc = await admin('/admin/announce', { kind: 'incident', starts: iso(t0 - 60_000), ends: iso(t0 + 3_600_000), text: `Mail delayed ${HOSTILE}` });
    expect(inc.status, await inc.clone().text()).toBe(200);
    // A freeze whose operator note carries markup too.
    await s.core.control.freeze('mail', true, 'admin', `queue <b>full</b> "again"`);
    // Proposals: one plain, one with markup in its title and text.
    const p1 = await req(s, 'POST', '/v1/p', {
      as: author,
      json: {
        kind: 'feature',
        title: 'Show the newest confirmed fixes per ecosystem',
        body: 'A hub per ecosystem already lists fixes.\nAdd the five newest confirmed ones at the top.',
      },
      headers: { accept: 'application/json' },
    });
    expect(p1.status, await p1.clone().text()).toBe(201);
    plainId = ((await p1.json()) as { id: string }).id;
    const p2 = await req(s, 'POST', '/v1/p', {
      as: author,
      json: { kind: 'policy', title: `Escape titles ${HOSTILE}`.slice(0, 100), body: `Line one ${HOSTILE}\n</pre><script>alert(2)</script>` },
      headers: { accept: 'application/json' },
    });
    expect(p2.status, await p2.clone().text()).toBe(201);
    hostileId = ((await p2.json()) as { id: string }).id;
    // One the operator accepted with a roadmap task.
    const p3 = await req(s, 'POST', '/v1/p', {
      as: author,
      json: { kind: 'feature', title: 'A status page per part of the service', body: 'Each part gets its own page and feed.' },
      headers: { accept: 'application/json' },
    });
    plannedId = ((await p3.json()) as { id: string }).id;
    const d = await req(s, 'POST', '/admin/decide', {
      json: { id: plannedId, decision: 'yes', task: true, bounty: 50, note: 'Planned for the next release.' },
      headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` },
    });
    expect(d.status, await d.clone().text()).toBe(200);
    // A replicated job run by the server alone (1 of 1): done, with a signed receipt.
    const end = Date.now() + 30_000;
    while (Date.now() < end) {
      const v = (await (await req(s, 'GET', '/v1/svc/text-stats', { headers: { accept: 'application/json' } })).json()) as { served: number | null };
      if (v.served === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const j = await req(s, 'POST', '/v1/svc/text-stats/job', { as: author, json: { input: 'one two three\nfour', k: 1, n: 1 } });
    expect(j.status, await j.clone().text()).toBe(201);
    jobId = /^job (j[0-9a-z]{10}) /.exec(await j.text())![1]!;
    while (Date.now() < end) {
      const v = (await (await req(s, 'GET', `/v1/job/${jobId}`, { as: author, headers: { accept: 'application/json' } })).json()) as { state: string };
      if (v.state === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);

  afterAll(async () => {
    await chrome?.close();
    await s?.stop();
  });

  async function looksRight(path: string, name: string, texts: string[]) {
    for (const w of WIDTHS) {
      const r = await check(chrome, s.url + path, name, w);
      expect(r.status, `${path} ${w}`).toBe(200);
      expect(r.scrollWidth, `${path} ${w}: horizontal overflow ${r.wide.join(', ')}`).toBeLessThanOrEqual(r.viewport);
      expect(r.wide, `${path} ${w}`).toEqual([]);
      expect(r.broken, `${path} ${w}: words broken mid-word`).toEqual([]);
      expect(r.problems, `${path} ${w}`).toEqual([]);
      expect(r.violations, `${path} ${w}`).toEqual([]);
      for (const t of texts) expect(r.text, `${path} ${w}`).toContain(t);
    }
    // The same page with JavaScript off reads the same (no screenshot: it looks the same), and
    // every link on it answers a browser with 200.
    const { page, problems } = await openTab(chrome, 'phone', { javascript: false });
    try {
      expect((await page.goto(s.url + path))?.status()).toBe(200);
      const hrefs = [...new Set(await page.$$eval('a[href]', (as) => as.map((x) => x.getAttribute('href')!)))];
      for (const h of hrefs) {
        expect(h, 'same-origin links only').toMatch(/^\//);
        expect(
          (await fetch(s.url + h, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } })).status,
          `${path} links ${h}`,
        ).toBe(200);
      }
      const off = await layout(page);
      expect(off.scrollWidth).toBeLessThanOrEqual(off.viewport);
      for (const t of texts) expect(off.text, `${path} without JavaScript`).toContain(t);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  }

  /** Loads a page and checks that the markup in it is text: shown literally, no script ran, no element made of it (screenshot `name`, if given). */
  async function inert(path: string, name: string | null, shown: string[]) {
    const { page, problems } = await openTab(chrome, 'desktop');
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs++;
      await d.dismiss();
    });
    try {
      const res = await page.goto(s.url + path);
      expect(res?.status()).toBe(200);
      const text = await page.$eval('main', (m) => (m as HTMLElement).innerText);
      for (const t of shown) expect(text).toContain(t);
      expect(await page.$$eval('main script, main img, main b', (els) => els.length)).toBe(0);
      expect(dialogs).toBe(0);
      expect(problems).toEqual([]);
      const l = await layout(page);
      expect(l.scrollWidth).toBeLessThanOrEqual(l.viewport);
      if (name) await shot(page, name, 'desktop');
      expect(await axe(page)).toEqual([]);
    } finally {
      await page.close();
    }
  }

  it('/status: overall state, announcements, parts, freezes, maintenance windows, signed lines', async () => {
    await looksRight('/status', 'commons-status', [
      'Status',
      'Partly frozen: mail; the rest operational',
      'Announcements',
      'Database upgrade: writes pause for two hours',
      'maintenance',
      'Parts of the service',
      'Freezes',
      'Maintenance windows',
      'Signed announcement lines',
    ]);
    // The status page's own screenshot shows this text already.
    await inert('/status', null, ['Mail delayed <script>alert("x")</script><img src=x onerror=alert(1)>', 'queue <b>full</b> "again"']);
    // Every part links to its own page.
    const html = await (await fetch(`${s.url}/status`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<a href="/st/mail">mail</a>');
    // The signed lines are there for whoever opens them.
    expect(html).toMatch(/<details><summary>The 2 latest lines<\/summary>[\s\S]*ann1 kid=\d+ sig=/);
  }, 120_000);

  it('/st/{target}: the state of one part, why, and its feed', async () => {
    await looksRight('/st/mail', 'commons-status-mail', ['Status: mail', 'frozen', 'queue <b>full</b>', 'Atom feed']);
    await looksRight('/st/api', 'commons-status-api', ['Status: api', 'operational']);
  }, 120_000);

  it('/gov: process, roadmap, open proposals linked to their pages, weights, decisions, notices', async () => {
    await looksRight('/gov', 'commons-gov', [
      'Governance',
      'Roadmap',
      'A status page per part of the service',
      'Open proposals',
      plainId,
      'Show the newest confirmed fixes per ecosystem',
      'Support weights',
      'Decisions',
      'Notices',
    ]);
    const html = await (await fetch(`${s.url}/gov`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain(`<a href="/v1/p/${plainId}">${plainId}</a>`);
    expect(html).toContain(`<a href="/v1/p/${plannedId}">${plannedId}</a>`);
    await looksRight('/gov/stats', 'commons-gov-stats', ['Capture metrics', 'roots', 'networks']);
    expect(html).not.toContain('<script>alert');
  }, 120_000);

  it('proposals: the list and one proposal as pages; markup in a proposal stays text', async () => {
    await looksRight('/v1/p', 'commons-proposals', ['Proposals', plainId, hostileId, 'Show the newest confirmed fixes per ecosystem']);
    await looksRight(`/v1/p/${plainId}`, 'commons-proposal', [
      'Show the newest confirmed fixes per ecosystem',
      'untrusted data',
      'open',
      'feature',
      'Add the five newest confirmed ones at the top.',
      'Support it',
      `/v1/p/${plainId}/support`,
    ]);
    await looksRight(`/v1/p/${plannedId}`, 'commons-proposal-planned', [
      'A status page per part of the service',
      'planned',
      'Operator note',
      'Planned for the next release.',
      'takes no more support',
    ]);
    await inert(`/v1/p/${hostileId}`, 'commons-proposal-hostile', [
      'Escape titles <script>alert("x")</script>',
      'Line one <script>alert("x")</script>',
      '</pre><script>alert(2)</script>',
    ]);
    // Agents keep the text and JSON forms at the same address.
    const t = await (await fetch(`${s.url}/v1/p/${plainId}`)).text();
    expect(t).toMatch(new RegExp(`^p ${plainId} open kind=feature`));
    expect(((await (await fetch(`${s.url}/v1/p/${plainId}?f=json`)).json()) as { id: string }).id).toBe(plainId);
    const page = await fetch(`${s.url}/v1/p/${plainId}`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('<meta name="robots" content="noindex">');
  }, 120_000);

  it('a replication receipt is a readable page with the signed line and its twins', async () => {
    await looksRight(`/att/${jobId}`, 'commons-receipt', [
      'Replication receipt',
      jobId,
      'text-stats@1',
      '1 of 1 replicas',
      'output sha256',
      'Donors that agreed',
      'this server',
      'Check it yourself',
      'att1 kid=',
    ]);
    for (const ext of ['txt', 'md', 'json']) expect((await fetch(`${s.url}/att/${jobId}.${ext}`)).status).toBe(200);
  }, 120_000);

  it('a receipt page shows stored strings as text, whatever they hold', async () => {
    // Receipt fields come from the store (service names, donor ids, a revocation reason): a page
    // made of hostile values must still show them as text.
    const html = receiptHtml(
      {
        job: `j${HOSTILE}`,
        svc: HOSTILE,
        wasm: HOSTILE,
        in_hash: 'a'.repeat(64),
        out_hash: 'b'.repeat(64),
        repro: '2/3',
        at: '2026-11-24T12:00:00Z',
        kid: 1,
        line: `att1 kid=1 sig=x ${HOSTILE}`,
        donors: [{ donor: HOSTILE, pub: HOSTILE, dsig: HOSTILE, lease: HOSTILE }],
        revoked: `donor lied ${HOSTILE}`,
        reported: [{ donor: HOSTILE, out_hash: HOSTILE }],
        key: `http://commons.test/.well-known/cx-key"><script>alert(3)</script>`,
      },
      'http://commons.test',
    );
    expect(html).not.toMatch(/<script>alert|<img src=x|"><script/);
    const { page, problems } = await openTab(chrome, 'desktop');
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs++;
      await d.dismiss();
    });
    try {
      await page.setContent(html, { waitUntil: 'load' });
      const text = await page.$eval('main', (m) => (m as HTMLElement).innerText);
      expect(text).toContain('<script>alert("x")</script><img src=x onerror=alert(1)>');
      expect(text).toContain('Revoked:');
      expect(await page.$$eval('main script, main img', (els) => els.length)).toBe(0);
      expect(dialogs).toBe(0);
      // setContent has no origin: the favicon link cannot load, which is not the page's fault.
      expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
      const l = await layout(page);
      expect(l.scrollWidth).toBeLessThanOrEqual(l.viewport);
    } finally {
      await page.close();
    }
  }, 60_000);
});
