// Reference pages (spec 4.1): thin routes over generated or static content.
import type { FastifyReply, FastifyRequest } from 'fastify';
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
import { readFigures, type Figures } from '../core/system/figures.js';
import { openapi } from './openapi.js';
import { llmsVersion } from '../core/gov/llms.js';
import { FAVICON, landingHtml, mdPage, PAGE_CSP, referenceHtml } from './site.js';
import { acceptQ, HTML, JSON_T, MD, queryF, sendText, wantsHtml, wantsJson } from '../http/negotiate.js';
import { moved, type RawHandler, type RawRoute, rawGroup } from '../http/raw.js';
import type { RestEnv } from './env.js';

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

// Prose pages with HTML, .md, .txt and .json twins.
const PROSE = [
  ['/about', 'About Agent Commons'],
  ['/legal', 'Legal'],
  ['/changelog', 'Changelog'],
] as const;
const TWINS = ['', '.md', '.txt', '.json', '.html'] as const;
const page = (path: string, purpose: string): RawRoute => ({ method: 'GET', path, purpose, shed: 'core' });

export const pageRoutes = rawGroup(
  'rest',
  'src/rest/pages.ts',
  {
    landing: page('/', 'the landing page for people (303 to /index.md for agents)'),
    reference: page('/reference', 'the operation reference page (303 to /index.md for agents)'),
    faviconSvg: page('/favicon.svg', 'the icon'),
    faviconIco: page('/favicon.ico', '301 to /favicon.svg'),
    indexMd: page('/index.md', 'the index for agents, generated from the registry'),
    llms: page('/llms.txt', 'llms.txt (voted sections, ?rev=)'),
    llmsFull: page('/llms-full.txt', 'llms-full.txt'),
    agents: page('/AGENTS.md', 'AGENTS.md'),
    grammar: page('/grammar', 'the text grammar'),
    openapi: page('/openapi.json', 'the OpenAPI document'),
    aup: page('/aup.txt', 'the acceptable use policy'),
    hazards: page('/hazards.txt', 'the hazard families'),
    signing: page('/signing', 'signing statements and keys'),
    ci: page('/ci', 'using the commons from CI'),
    help: page('/help', 'the help page (text or markdown)'),
    helpErr: page('/help/err', 'the error codes'),
    helpErrCode: page('/help/err/:code', 'one error code'),
    ...(Object.fromEntries(
      PROSE.flatMap(([path, title]) => TWINS.map((t) => [`${path}${t}`, page(`${path}${t}`, `${title}${t ? ` (${t.slice(1)})` : ' (negotiated)'}`)])),
    ) as Record<string, RawRoute>),
    securityTxt: page('/.well-known/security.txt', 'security.txt'),
    apiCatalog: page('/.well-known/api-catalog', 'the API catalog (RFC 9727 linkset)'),
  },
  ({ core, ops }: RestEnv) => {
    const base = core.config.baseUrl;
    const send = (reply: FastifyReply, type: string, body: string | object) => reply.header('cache-control', PUBLIC).type(type).send(body);
    const TXT = 'text/plain; charset=utf-8';
    const fixed = (type: string, body: () => string | object): RawHandler => ({ handle: async (_req, reply) => send(reply, type, body()) });

    // Generated once: the registry and base URL do not change while the process runs.
    // Per revision of the voted sections (revisions never change once written, src/core/gov/llms.ts).
    const llmsByRev = new Map<number, string>();
    const oa = openapi(ops, base, '1.0.0');
    let full = { at: 0, text: '' };
    // The landing page for people: live figures read at most every landing.figures_s seconds.
    let figures: { at: number; f: Figures } | null = null;
    // The operation reference, generated from the registry (it was the landing page).
    const reference = referenceHtml(base, ops);
    const signing = signingTxt(base);

    // Prose pages in the site's shell (header, navigation, footer) like every other page for people.
    // Paths and URLs in inline code (`/.well-known/cx-key`) wrap anywhere on a phone, like every
    // address on the site (class long); other code keeps its words whole.
    const prosePage = (title: string, markdown: string, alternates: Array<[string, string]> = []) =>
      mdPage(title, markdown, { base, alternates: alternates.map(([t, h]) => [t, base + h] as [string, string]) }).replace(
        /<code>([^<]*\/[^<]*)<\/code>/g,
        '<code class="long">$1</code>',
      );
    const proseContent: Record<string, [() => string, () => object]> = {
      '/about': [() => aboutMd(base), () => ({ title: 'About', markdown: aboutMd(base) })],
      '/legal': [() => legalMd(base), () => ({ title: 'Legal', markdown: legalMd(base) })],
      '/changelog': [() => changelogMd(), () => ({ entries: CHANGELOG })],
    };
    const prose: Record<string, RawHandler> = {};
    for (const [path, title] of PROSE) {
      const [md, json] = proseContent[path]!;
      const txt = path === '/changelog' ? changelogTxt : md;
      prose[path] = {
        async handle(req, reply) {
          reply.header('vary', 'accept');
          if (wantsJson(req)) return send(reply, JSON_T, json());
          if (wantsHtml(req))
            return send(
              reply.header('content-security-policy', PAGE_CSP),
              HTML,
              prosePage(title, md(), [['text/markdown', `${path}.md`], ['application/json', `${path}.json`], ...feedLinks(path)]),
            );
          return send(reply, TXT, txt());
        },
      };
      prose[`${path}.md`] = fixed(MD, md);
      prose[`${path}.txt`] = fixed(TXT, txt);
      prose[`${path}.json`] = fixed(JSON_T, json);
      prose[`${path}.html`] = { handle: async (_req, reply) => send(reply.header('content-security-policy', PAGE_CSP), HTML, prosePage(title, md())) };
    }

    const catalogLink = `<${base}/.well-known/api-catalog>; rel="api-catalog"`;
    return {
      landing: {
        async handle(req, reply) {
          if (!wantsHtml(req)) return reply.code(303).header('location', '/index.md').header('vary', 'accept').send();
          if (!figures || core.now() - figures.at > limit('landing.figures_s') * 1000) figures = { at: core.now(), f: await readFigures(core) };
          reply.headers({ vary: 'accept', 'cache-control': 'public, max-age=60', 'content-security-policy': PAGE_CSP });
          return reply.type(HTML).send(landingHtml(base, figures.f, ops.length));
        },
      },
      reference: {
        async handle(req, reply) {
          if (!wantsHtml(req)) return reply.code(303).header('location', '/index.md').header('vary', 'accept').send();
          return send(reply.headers({ vary: 'accept', 'content-security-policy': PAGE_CSP }), HTML, reference);
        },
      },
      faviconSvg: { handle: async (_req, reply) => reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(FAVICON) },
      faviconIco: moved('/favicon.svg'),
      indexMd: fixed(MD, () => indexMd(ops, base)),
      llms: {
        async handle(req, reply) {
          const rev = (req.query as Record<string, unknown>).rev;
          if (rev !== undefined) {
            if (typeof rev !== 'string' || !/^[1-9]\d{0,8}$/.test(rev)) throw new CxError('bad', 'rev: integer at least 1');
          }
          const v = await llmsVersion(core, rev === undefined ? undefined : Number(rev));
          let text = llmsByRev.get(v.rev);
          if (text === undefined) llmsByRev.set(v.rev, (text = llmsTxt(ops, base, v.sections)));
          reply.header('x-llms-rev', String(v.rev));
          return send(reply, TXT, text);
        },
      },
      llmsFull: {
        async handle(_req, reply) {
          if (core.now() - full.at > limit('llms_full.regen') * 1000) full = { at: core.now(), text: llmsFullTxt(ops, base, limit('llms_full.bytes')) };
          return send(reply, TXT, full.text);
        },
      },
      agents: fixed(MD, () => agentsMd(ops, base)),
      grammar: fixed(TXT, () => grammarTxt(base)),
      openapi: fixed(JSON_T, () => oa),
      aup: fixed(TXT, () => aupTxt(base)),
      hazards: fixed(TXT, () => hazardsTxt(base)),
      signing: fixed(TXT, () => signing),
      ci: fixed(TXT, () => ciTxt(base)),
      help: { handle: async (req, reply) => (wantsMd(req) ? send(reply, MD, helpMd(ops)) : send(reply, TXT, helpTxt(ops))) },
      helpErr: { handle: async (req, reply) => (wantsMd(req) ? send(reply, MD, helpErrMd()) : send(reply, TXT, helpErrTxt())) },
      helpErrCode: {
        async handle(req, reply) {
          const e = errCode((req.params as { code: string }).code);
          if (!e) throw new CxError('notfound', 'no such error code; see /help/err');
          return wantsMd(req) ? send(reply, MD, helpErrCodeMd(e)) : send(reply, TXT, helpErrCodeTxt(e));
        },
      },
      ...prose,
      securityTxt: {
        async handle(_req, reply) {
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
          return send(reply, TXT, body);
        },
      },
      apiCatalog: {
        handle: async (_req, reply) =>
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
      },
    };
  },
);
