// Badges through the real server: shields.io endpoint JSON, flat SVG (checked once in headless
// Chromium), identical 404s, and the same operations over MCP.
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badge, badgeSvg, textWidth } from '../../src/core/badges/svg.js';
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

const json = async (path: string) => {
  const r = await get(s, path);
  expect(r.status, `${path}: ${await r.clone().text()}`).toBe(200);
  return (await r.json()) as Record<string, unknown>;
};

/** The SVG, checked for its structure: total width = label box + message box. */
async function svg(path: string): Promise<{ text: string; width: number; label: number; message: number }> {
  const r = await get(s, path);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  expect(r.headers.get('cache-control')).toBe('public, max-age=300');
  const text = await r.text();
  const width = Number(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="(\d+)" height="20" /.exec(text)![1]);
  const label = Number(/<rect width="(\d+)" height="20" fill="#555"\/>/.exec(text)![1]);
  const m = /<rect x="(\d+)" width="(\d+)" height="20" fill="#[0-9a-f]{3,6}"\/>/.exec(text)!;
  expect(Number(m[1])).toBe(label);
  expect(label + Number(m[2])).toBe(width);
  return { text, width, label, message: Number(m[2]) };
}

describe('badge JSON (shields.io endpoint schema) and SVG', () => {
  it('agent badge: reputation and fixes, coloured by level', async () => {
    expect(await json(`/b/a/${alice.id}.json`)).toEqual({ schemaVersion: 1, label: `agent ${alice.id}`, message: 'rep 0 | fixes 0', color: 'lightgrey' });
    const r = await post(s, '/k', alice, { error: "ModuleNotFoundError: No module named 'zzbadge'", fix: 'pip install zzbadge in the venv', eco: 'pypi' });
    const k = /^ok k\/(k[0-9a-z]{8}) /.exec(await r.text())![1]!;
    await post(s, `/k/${k}/ok`, bob);
    // Reputation follows weighted outcomes: a new L0 identity's confirmation gives round(5 x 0.13) = 1.
    expect(await json(`/b/a/${alice.id}.json`)).toMatchObject({ message: 'rep 1 | fixes 1' });
    const a = await svg(`/b/a/${alice.id}.svg`);
    expect(a.text).toContain(`aria-label="agent ${alice.id}: rep 1 | fixes 1"`);
    expect(a.text).toContain('fill="#9f9f9f"');
    expect(await line(await get(s, `/b/a/${alice.id}`))).toBe(
      `badge agent ${alice.id}: rep 1 | fixes 1 color=lightgrey\nnext: embed http://commons.test/b/a/<id>.svg as the image (/b/a/<id>.json: the shields.io endpoint)`,
    );

    // Entry badge: score and confirmations.
    expect(await json(`/b/k/${k}.json`)).toEqual({ schemaVersion: 1, label: `fix ${k}`, message: 'score 1 | 1 confirmed', color: 'green' });
    expect((await svg(`/b/k/${k}.svg`)).text).toContain('fill="#97ca00"');
  });

  it('task badge follows the task: open, claimed, done, accepted', async () => {
    const t = (await (await post(s, '/v1/tasks', alice, { title: 'Badge me', bounty: 5 }, { accept: 'application/json' })).json()) as { id: string };
    const seen: Array<[string, string]> = [];
    const snap = async () => {
      const j = await json(`/b/t/${t.id}.json`);
      seen.push([j.message as string, j.color as string]);
    };
    await snap();
    await post(s, `/v1/tasks/${t.id}/claim`, bob);
    await snap();
    await post(s, `/v1/tasks/${t.id}/done`, bob, { result: 'ok' });
    await snap();
    await post(s, `/v1/tasks/${t.id}/accept`, alice);
    await snap();
    expect(seen).toEqual([
      ['open | 5 credits', 'green'],
      ['claimed | 5 credits', 'yellow'],
      ['done | 5 credits', 'blue'],
      ['accepted | 5 credits', 'brightgreen'],
    ]);
    const plain = (await (await post(s, '/v1/tasks', bob, { title: 'No bounty' }, { accept: 'application/json' })).json()) as { id: string };
    expect(await json(`/b/t/${plain.id}.json`)).toEqual({ schemaVersion: 1, label: `task ${plain.id}`, message: 'open', color: 'green' });
    // Longer text, wider badge.
    expect((await svg(`/b/t/${t.id}.svg`)).message).toBeGreaterThan((await svg(`/b/t/${plain.id}.svg`)).message);
  });

  it('space badge and live counts', async () => {
    await post(s, '/v1/spaces', alice, { slug: 'badgers' });
    await post(s, '/v1/spaces/badgers/join', bob);
    await post(s, '/v1/tasks', bob, { title: 'Space task', space: 'badgers' });
    expect(await json('/b/s/badgers.json')).toEqual({ schemaVersion: 1, label: 's:badgers', message: '2 members | 1 fixes | 1 tasks', color: 'blue' });
    await svg('/b/s/badgers.svg');

    const live = async () => {
      const m = /^(\d+) agents \| (\d+) fixes \| (\d+) open tasks$/.exec((await json('/b/live.json')).message as string)!;
      return m.slice(1).map(Number);
    };
    const [agents0, fixes0, open0] = await live();
    const stats = await line(await fetch(`${s.url}/admin/stats`, { headers: { authorization: `Bearer ${s.config.operatorTokens.poll}` } }));
    expect(stats).toContain(`identities=${agents0} `);
    const open = (await (await get(s, '/v1/tasks?n=50&f=json')).json()) as { count: number };
    expect(open0).toBe(open.count);
    await agent(s);
    await post(s, '/v1/tasks', alice, { title: 'One more open task' });
    expect(await live()).toEqual([agents0! + 1, fixes0, open0! + 1]);
    const l = await svg('/b/live.svg');
    expect(l.text).toContain('aria-label="agent commons: ');
  });

  it('unknown or hidden targets are identical 404s, body and headers', async () => {
    const r = await post(s, '/k', bob, { error: "ModuleNotFoundError: No module named 'zzhidden'", fix: 'pip install zzhidden in the venv', eco: 'pypi' });
    const hidden = /^ok k\/(k[0-9a-z]{8}) /.exec(await r.text())![1]!;
    const db = new Database(join(s.dir, 'commons.db'));
    db.prepare('UPDATE kb_entries SET hidden = 1 WHERE id = ?').run(hidden);
    db.close();
    const paths = [
      `/b/k/${hidden}.svg`,
      '/b/k/k00000000.svg',
      '/b/a/a000000.svg',
      '/b/s/no-such.svg',
      '/b/t/t00000000.svg',
      `/b/k/${hidden}.json`,
      '/b/k/k00000000.json',
    ];
    const res = await Promise.all(paths.map((p) => get(s, p)));
    const shape = async (x: Response) => {
      const h = Object.fromEntries([...x.headers.entries()].filter(([k]) => !['date', 'x-request-id'].includes(k)));
      return { status: x.status, body: await x.text(), h };
    };
    const first = await shape(res[0]!);
    expect(first.status).toBe(404);
    expect(first.body).toBe('err notfound\n');
    for (const x of res.slice(1)) expect(await shape(x)).toEqual(first);
    expect((await get(s, '/b/k/nope.svg')).status).toBe(400);
  });

  it('the same badges over MCP, as one tool (badge_get of=...)', async () => {
    const m = await mcp(s, null);
    try {
      const r = await m.call('badge_get', { of: 'agent', id: bob.id });
      // Bob's only entry was hidden above: it no longer counts.
      expect(r.structuredContent).toEqual({ of: 'agent', schemaVersion: 1, label: `agent ${bob.id}`, message: 'rep 0 | fixes 0', color: 'lightgrey' });
      expect(toolText(r)).toBe(
        `badge agent ${bob.id}: rep 0 | fixes 0 color=lightgrey\nnext: embed http://commons.test/b/a/<id>.svg as the image (/b/a/<id>.json: the shields.io endpoint)`,
      );
      expect((await m.call('badge_get', { of: 'live' })).structuredContent).toMatchObject({ schemaVersion: 1, label: 'agent commons' });
      expect(toolText(await m.call('badge_get', { of: 'space', slug: 'no-such-space' }))).toBe('err notfound');
      const missing = await m.call('badge_get', { of: 'task', id: 't00000000' });
      expect(missing.isError).toBe(true);
      expect(toolText(missing)).toBe('err notfound');
      // Each kind validates its own input: a field another kind takes is refused.
      expect(toolText(await m.call('badge_get', { of: 'live', id: 'x' }))).toMatch(/^err bad /);
    } finally {
      await m.close();
    }
  });
});

describe('SVG renderer', () => {
  it('escapes text and sizes boxes from Verdana widths', () => {
    const out = badgeSvg(badge('a<b>&"c\'', 'x\u0007y', 'red'));
    expect(out).toContain('a&lt;b&gt;&amp;&quot;c&#39;');
    expect(out).not.toMatch(/a<b/);
    expect(out).toContain('>x y<');
    // Narrow letters make narrower boxes than wide ones of the same count.
    expect(textWidth('iiii')).toBeLessThan(textWidth('WWWW'));
    expect(textWidth('')).toBe(0);
    expect(textWidth('rep 5')).toBe(Math.ceil(4.69 + 6.55 + 6.85 + 3.87 + 6.99));
  });
});

/** Decodes an 8-bit RGB or RGBA non-interlaced PNG into rows of pixels. */
function decodePng(buf: Buffer): { width: number; height: number; px: (x: number, y: number) => number[] } {
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8]).toBe(8);
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
      expect(channels).toBeGreaterThan(0);
      expect(data[12]).toBe(0);
    }
    if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= channels ? out[y * stride + i - channels]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels]! : 0;
      const p = a + b - c;
      const pr = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, pr][f]!) & 255;
    }
  }
  return { width, height, px: (x, y) => [...out.subarray(y * stride + x * channels, y * stride + x * channels + 3)] };
}

const CHROMIUM = '/usr/bin/chromium';

describe('rendering', () => {
  it.skipIf(!existsSync(CHROMIUM))(
    'headless Chromium draws the task badge at its size, grey label and green message',
    async () => {
      const t = (await (await post(s, '/v1/tasks', alice, { title: 'Render me' }, { accept: 'application/json' })).json()) as { id: string };
      const { width } = await svg(`/b/t/${t.id}.svg`);
      const dir = mkdtempSync(join(tmpdir(), 'cx-badge-'));
      try {
        const png = join(dir, 'badge.png');
        const r = await promisify(execFile)(
          CHROMIUM,
          [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--hide-scrollbars',
            '--force-device-scale-factor=1',
            `--user-data-dir=${join(dir, 'profile')}`,
            `--window-size=${width},20`,
            `--screenshot=${png}`,
            `${s.url}/b/t/${t.id}.svg`,
          ],
          { timeout: 60_000 },
        ).catch((e: { stderr?: string }) => ({ stderr: e.stderr ?? String(e), stdout: '' }));
        expect(existsSync(png), r.stderr).toBe(true);
        const buf = readFileSync(png);
        if (process.env.CX_BADGE_PNG) copyFileSync(png, process.env.CX_BADGE_PNG);
        expect(buf.length).toBeGreaterThan(500);
        const img = decodePng(buf);
        expect([img.width, img.height]).toEqual([width, 20]);
        const near = (got: number[], want: number[]) => got.every((v, i) => Math.abs(v - want[i]!) <= 24);
        // Mid-height, inside the 5 px padding of each box: label #555, message #97ca00.
        expect(img.px(2, 10), 'label box').toSatisfy((p: number[]) => near(p, [0x55, 0x55, 0x55]));
        expect(img.px(width - 3, 10), 'message box').toSatisfy((p: number[]) => near(p, [0x97, 0xca, 0x00]));
        // Text was drawn: the label box holds white-ish pixels somewhere along its middle row.
        const row = Array.from({ length: 40 }, (_, i) => img.px(8 + i, 13));
        expect(row.some((p) => p.every((v) => v > 180))).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
