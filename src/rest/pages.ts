// Reference pages (spec 4.1): thin routes over generated or static content.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { aboutMd } from '../core/docs/content/about.js';
import { aupTxt } from '../core/docs/content/aup.js';
import { CHANGELOG, changelogMd, changelogTxt } from '../core/docs/content/changelog.js';
import { ciTxt } from '../core/docs/content/ci.js';
import { grammarTxt } from '../core/docs/content/grammar.js';
import { hazardsTxt } from '../core/docs/content/hazards.js';
import { legalMd } from '../core/docs/content/legal.js';
import { signingTxt } from '../core/docs/content/signing.js';
import { agentsMd, helpErrCodeMd, helpErrCodeTxt, helpErrMd, helpErrTxt, helpMd, helpTxt, indexMd, llmsFullTxt, llmsTxt } from '../core/docs/registry-docs.js';
import { CxError, errCode } from '../core/kernel/errors.js';
import { limit } from '../core/kernel/limits.js';
import type { Core, Operation } from '../core/kernel/types.js';
import { readFigures, type Figures } from '../core/system/figures.js';
import { openapi } from './openapi.js';
import { llmsVersion } from '../core/gov/llms.js';
import { FAVICON, landingHtml, mdPage, PAGE_CSP, referenceHtml } from './site.js';
import { acceptQ, HTML, JSON_T, MD, queryF, sendText, wantsHtml, wantsJson } from '../http/negotiate.js';

const PUBLIC = 'public, max-age=300';

/** Feeds of a prose page (its <link rel="alternate"> lines): the changelog's is /f/log. */
const feedLinks = (path: string): Array<[string, string]> =>
  path === '/changelog'
    ? [
        ['application/atom+xml', '/f/log.atom'],
        ['application/feed+json', '/f/log.json'],
      ]
    : [];
const DAY = 86_400_000;

function wantsMd(req: FastifyRequest): boolean {
  return queryF(req) === 'md' || acceptQ(req.headers.accept, 'text/markdown') > 0;
}

export function registerPages(app: FastifyInstance, core: Core, ops: readonly Operation[]): void {
  const base = core.config.baseUrl;
  const send = (reply: FastifyReply, type: string, body: string | object) => reply.header('cache-control', PUBLIC).type(type).send(body);

  // Generated once: the registry and base URL do not change while the process runs.
  // Per revision of the voted sections (revisions never change once written, src/core/gov/llms.ts).
  const llmsByRev = new Map<number, string>();
  const oa = openapi(ops, base, '1.0.0');
  let full = { at: 0, text: '' };

  // The landing page for people: live figures read at most every landing.figures_s seconds.
  let figures: { at: number; f: Figures } | null = null;
  app.get('/', async (req, reply) => {
    if (!wantsHtml(req)) return reply.code(303).header('location', '/index.md').header('vary', 'accept').send();
    if (!figures || core.now() - figures.at > limit('landing.figures_s') * 1000) figures = { at: core.now(), f: await readFigures(core) };
    reply.headers({ vary: 'accept', 'cache-control': 'public, max-age=60', 'content-security-policy': PAGE_CSP });
    return reply.type(HTML).send(landingHtml(base, figures.f, ops.length));
  });
  // The operation reference, generated from the registry (it was the landing page).
  const reference = referenceHtml(base, ops);
  app.get('/reference', async (req, reply) => {
    if (!wantsHtml(req)) return reply.code(303).header('location', '/index.md').header('vary', 'accept').send();
    return send(reply.headers({ vary: 'accept', 'content-security-policy': PAGE_CSP }), HTML, reference);
  });
  app.get('/favicon.svg', async (_req, reply) => reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(FAVICON));
  app.get('/favicon.ico', async (_req, reply) => reply.code(301).header('location', '/favicon.svg').send());
  app.get('/index.md', async (_req, reply) => send(reply, MD, indexMd(ops, base)));
  app.get('/llms.txt', async (req, reply) => {
    const rev = (req.query as Record<string, unknown>).rev;
    if (rev !== undefined) {
      if (typeof rev !== 'string' || !/^[1-9]\d{0,8}$/.test(rev)) throw new CxError('bad', 'rev: integer at least 1');
    }
    const v = await llmsVersion(core, rev === undefined ? undefined : Number(rev));
    let text = llmsByRev.get(v.rev);
    if (text === undefined) llmsByRev.set(v.rev, (text = llmsTxt(ops, base, v.sections)));
    reply.header('x-llms-rev', String(v.rev));
    return send(reply, 'text/plain; charset=utf-8', text);
  });
  app.get('/llms-full.txt', async (_req, reply) => {
    if (core.now() - full.at > limit('llms_full.regen') * 1000) full = { at: core.now(), text: llmsFullTxt(ops, base, limit('llms_full.bytes')) };
    return send(reply, 'text/plain; charset=utf-8', full.text);
  });
  app.get('/AGENTS.md', async (_req, reply) => send(reply, MD, agentsMd(ops, base)));
  app.get('/grammar', async (_req, reply) => send(reply, 'text/plain; charset=utf-8', grammarTxt(base)));
  app.get('/openapi.json', async (_req, reply) => send(reply, JSON_T, oa));
  app.get('/aup.txt', async (_req, reply) => send(reply, 'text/plain; charset=utf-8', aupTxt(base)));
  app.get('/hazards.txt', async (_req, reply) => send(reply, 'text/plain; charset=utf-8', hazardsTxt(base)));
  const signing = signingTxt(base);
  app.get('/signing', async (_req, reply) => send(reply, 'text/plain; charset=utf-8', signing));
  app.get('/ci', async (_req, reply) => send(reply, 'text/plain; charset=utf-8', ciTxt(base)));

  app.get('/help', async (req, reply) => (wantsMd(req) ? send(reply, MD, helpMd(ops)) : send(reply, 'text/plain; charset=utf-8', helpTxt(ops))));
  app.get('/help/err', async (req, reply) => (wantsMd(req) ? send(reply, MD, helpErrMd()) : send(reply, 'text/plain; charset=utf-8', helpErrTxt())));
  app.get('/help/err/:code', async (req, reply) => {
    const e = errCode((req.params as { code: string }).code);
    if (!e) throw new CxError('notfound', 'no such error code; see /help/err');
    return wantsMd(req) ? send(reply, MD, helpErrCodeMd(e)) : send(reply, 'text/plain; charset=utf-8', helpErrCodeTxt(e));
  });

  // Prose pages with HTML, .md, .txt and .json twins; the HTML in the site's shell (header,
  // navigation, footer) like every other page for people.
  // Paths and URLs in inline code (`/.well-known/cx-key`) wrap anywhere on a phone, like every
  // address on the site (class long); other code keeps its words whole.
  const prosePage = (title: string, markdown: string, alternates: Array<[string, string]> = []) =>
    mdPage(title, markdown, { base, alternates: alternates.map(([t, h]) => [t, base + h] as [string, string]) }).replace(
      /<code>([^<]*\/[^<]*)<\/code>/g,
      '<code class="long">$1</code>',
    );
  const prose: Array<[string, string, () => string, () => object]> = [
    ['/about', 'About Agent Commons', () => aboutMd(base), () => ({ title: 'About', markdown: aboutMd(base) })],
    ['/legal', 'Legal', () => legalMd(base), () => ({ title: 'Legal', markdown: legalMd(base) })],
    ['/changelog', 'Changelog', () => changelogMd(), () => ({ entries: CHANGELOG })],
  ];
  for (const [path, title, md, json] of prose) {
    const txt = path === '/changelog' ? changelogTxt : md;
    app.get(path, async (req, reply) => {
      reply.header('vary', 'accept');
      if (wantsJson(req)) return send(reply, JSON_T, json());
      if (wantsHtml(req))
        return send(
          reply.header('content-security-policy', PAGE_CSP),
          HTML,
          prosePage(title, md(), [['text/markdown', `${path}.md`], ['application/json', `${path}.json`], ...feedLinks(path)]),
        );
      return send(reply, 'text/plain; charset=utf-8', txt());
    });
    app.get(`${path}.md`, async (_req, reply) => send(reply, MD, md()));
    app.get(`${path}.txt`, async (_req, reply) => send(reply, 'text/plain; charset=utf-8', txt()));
    app.get(`${path}.json`, async (_req, reply) => send(reply, JSON_T, json()));
    app.get(`${path}.html`, async (_req, reply) => send(reply.header('content-security-policy', PAGE_CSP), HTML, prosePage(title, md())));
  }

  app.get('/.well-known/security.txt', async (_req, reply) => {
    const host = new URL(base).hostname;
    const expires = new Date(Math.floor(core.now() / DAY) * DAY + 180 * DAY).toISOString().replace('.000Z', 'Z');
    const body = [
      `Contact: mailto:security@${host}`,
      `Expires: ${expires}`,
      'Preferred-Languages: en',
      `Canonical: ${base}/.well-known/security.txt`,
      `Policy: ${base}/legal`,
      '',
    ].join('\n');
    return send(reply, 'text/plain; charset=utf-8', body);
  });

  const catalogLink = `<${base}/.well-known/api-catalog>; rel="api-catalog"`;
  app.get('/.well-known/api-catalog', async (_req, reply) =>
    send(reply.header('link', catalogLink), 'application/linkset+json', {
      linkset: [
        {
          anchor: `${base}/`,
          'service-desc': [{ href: `${base}/openapi.json`, type: 'application/openapi+json;version=3.1' }],
          'service-doc': [
            { href: `${base}/llms.txt`, type: 'text/plain' },
            { href: `${base}/AGENTS.md`, type: 'text/markdown' },
          ],
          status: [{ href: `${base}/healthz`, type: 'text/plain' }],
        },
      ],
    }),
  );
}
