// Headless Chromium for the page tests: the Debian package at /usr/bin/chromium, driven by
// puppeteer-core (which downloads no browser). One helper loads a page at phone and desktop widths
// and checks what a visitor would notice: horizontal overflow, console errors, missing text, and
// axe-core's accessibility rules. Screenshots of the last run go to .tmp/screenshots/ (ignored), or to
// the committed docs/screenshots/ with UPDATE_SCREENSHOTS=1.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { shrinkPng } from './png.js';

export const CHROMIUM = process.env.CX_CHROMIUM ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Said once per file when the tests are skipped, so a green run without a browser is not mistaken for a checked one. */
export const SKIP_REASON = `browser page tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y --no-install-recommends chromium, or set CX_CHROMIUM)`;

/** Where screenshots go: an ignored folder, so a test run leaves the checkout as it was; the committed
 *  ones in docs/screenshots/ change only when asked (UPDATE_SCREENSHOTS=1 npx vitest run test/pages). */
export const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../docs/screenshots') : join(import.meta.dirname, '../../.tmp/screenshots');
export const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
export type Width = keyof typeof WIDTHS;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Chrome {
  browser: Browser;
  close(): Promise<void>;
}

export async function launch(): Promise<Chrome> {
  const profile = mkdtempSync(join(tmpdir(), 'cx-chrome-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      '--force-device-scale-factor=1',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A port free right now, so a server can be told its own public URL before it listens. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Watched {
  page: Page;
  /** Console errors, uncaught exceptions and failed requests, as lines. */
  problems: string[];
}

/**
 * A browser step that could hang (puppeteer's evaluate and close have no time limit of their own):
 * it fails after `ms`, naming the step. A test's own limit only says that the test ran too long;
 * this says where (the /kb/ page test ran past its 60 s in two of ten full runs on 2026-11-29, never
 * when run alone or with the other page tests).
 */
export async function step<T>(label: string, p: Promise<T>, ms = 50_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`browser step still running after ${ms / 1000} s: ${label}`)), ms);
  });
  try {
    return await Promise.race([p, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** A new tab at the given width that records every console error, page error and failed request. */
export async function openTab(c: Chrome, width: Width, opts: { javascript?: boolean } = {}): Promise<Watched> {
  const page = await c.browser.newPage();
  await page.setViewport({ ...WIDTHS[width], deviceScaleFactor: 1 });
  // axe is injected as a script: the pages' CSP (default-src 'none') would refuse it otherwise.
  await page.setBypassCSP(true);
  if (opts.javascript === false) await page.setJavaScriptEnabled(false);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} ${m.location()?.url ?? ''}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e instanceof Error ? e.message : String(e)}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  return { page, problems };
}

export interface Layout {
  scrollWidth: number;
  viewport: number;
  /** Elements wider than the viewport or reaching past its right edge (tag.class and width). */
  wide: string[];
  /** Words broken across lines inside one text node, e.g. `vps-` / `xl`. */
  broken: string[];
  text: string;
}

// Runs in the page. Kept as plain JavaScript text: a bundler's helpers (esbuild's __name) do not
// exist there.
const LAYOUT_JS = `(() => {
  const vw = document.documentElement.clientWidth;
  const wide = [];
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1) wide.push(el.tagName.toLowerCase() + '.' + (el.className || '-') + ' right=' + Math.round(r.right));
  }
  // A word broken mid-word: one word's characters on two lines. Prose may break after a hyphen
  // (case-/insensitive); an identifier in <code> (vps-xl) may not break at all. Blocks of
  // published text (pre) and addresses or URLs (.long) wrap anywhere by design.
  const broken = [];
  const tops = (n, i, j) => {
    const r = document.createRange();
    r.setStart(n, i);
    r.setEnd(n, j);
    return Array.from(r.getClientRects()).filter((x) => x.width > 0).map((x) => Math.round(x.top));
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n.textContent || '';
    const el = n.parentElement;
    if (!el || el.closest('.long, pre, script, style')) continue;
    const code = !!el.closest('code');
    for (const m of t.matchAll(/[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9]/g)) {
      const s = m.index;
      if (new Set(tops(n, s, s + m[0].length)).size < 2) continue;
      // Where the second line starts: right after a hyphen is a fine break in prose.
      const first = tops(n, s, s + 1)[0];
      let k = s + 1;
      while (k < s + m[0].length && tops(n, k, k + 1)[0] === first) k++;
      if (code || t[k - 1] !== '-') broken.push(m[0]);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, viewport: vw, wide: wide.slice(0, 10), broken, text: document.body.innerText };
})()`;

/** What the page looks like to a visitor: overflow, words split mid-word, visible text. */
export async function layout(page: Page): Promise<Layout> {
  return (await page.evaluate(LAYOUT_JS)) as Layout;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's WCAG 2.1 A/AA rules and best practices; returns the serious and critical violations. */
export async function axe(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  const res = (await page.evaluate(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    () => (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }),
  )) as { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> };
  return res.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/** Screenshots stop this far down: long lists show their first screens, the files stay small. */
export const SHOT_MAX_HEIGHT = 1600;

// What changes with every run is masked in the screenshot only, after the checks: the digits of
// dates and times the pages mark with <time> become zeros (same width, same layout), and the test
// server's own port (the catalog's base URL is its real address) becomes <port>. So a page that did
// not change gives the same PNG. Random ids and keys of a fresh data directory are not masked.
const MASK_JS = `(() => {
  document.querySelectorAll('time').forEach((t) => { t.textContent = (t.textContent || '').replace(/[0-9]/g, '0'); });
  if (!location.port) return;
  const host = location.hostname + ':' + location.port;
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) if (n.textContent.includes(host)) n.textContent = n.textContent.split(host).join(location.hostname + ':<port>');
})()`;

/** Full-page PNG of the last run (at most SHOT_MAX_HEIGHT px), 1x, palette-reduced: <SHOTS>/<name>-<width>.png. */
export async function shot(page: Page, name: string, width: Width): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(MASK_JS);
  const path = join(SHOTS, `${name}-${width}.png`);
  const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
  const png =
    height > SHOT_MAX_HEIGHT
      ? await page.screenshot({ type: 'png', captureBeyondViewport: true, clip: { x: 0, y: 0, width: WIDTHS[width].width, height: SHOT_MAX_HEIGHT } })
      : await page.screenshot({ fullPage: true, type: 'png' });
  writeFileSync(path, shrinkPng(Buffer.from(png)));
  return path;
}

export interface Checked extends Layout {
  status: number;
  problems: string[];
  violations: AxeViolation[];
}

/**
 * Loads `url` at one width, screenshots it as `name`, and reports status, layout, problems and
 * accessibility violations for the caller's expectations. The tab is closed afterwards.
 */
export async function check(c: Chrome, url: string, name: string, width: Width, opts: { javascript?: boolean } = {}): Promise<Checked> {
  const { page, problems } = await openTab(c, width, opts);
  try {
    const res = await page.goto(url, { waitUntil: 'load' });
    const l = await layout(page);
    await shot(page, name, width);
    const violations = opts.javascript === false ? [] : await axe(page);
    return { ...l, status: res?.status() ?? 0, problems, violations };
  } finally {
    await page.close();
  }
}
