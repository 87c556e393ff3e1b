// Part B, the hosting catalog: its own fastify instance on CATALOG_PORT with its own database
// (catalog.db). Catalog JSON and llms.txt from the operator's products file, the product and order
// pages, form orders with a redirect to the payment provider, private tracking pages, provider
// webhooks, health. Browsers get errors as pages; scripts keep the one-line `err` form.
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { clip } from '../http/logging.js';
import { prettyRequests } from '../http/log-format.js';
import { clientErrorHandler, drainOnClose, missingHost, missingHostError, nosniffEvery, serverOptions } from '../http/wire.js';
import { netKey } from '../core/kernel/net.js';
import { registerAdmin } from './admin.js';
import type { CatalogConfig } from './config.js';
import { cors, HTML, JSON_T, preflight, sendErr, sendStatic, staticDoc, TEXT, toCxError, wantsHtml, wantsJson } from './http.js';
import { CATALOG_LIMITS } from './limits.js';
import { startMoneroPoller } from './monero-poll.js';
import { Orders, parseOrder, TOKEN_RE, tokenHash } from './orders.js';
import { btcpayAdapter } from './pay/btcpay.js';
import { MoneroRpc, moneroAdapter } from './pay/monero.js';
import { stripeAdapter } from './pay/stripe.js';
import { OrderQuota } from './quota.js';
import { openCatalogStore } from './sqlite.js';
import type { PaymentMethod } from './store.js';
import { buildOffer } from './offer.js';
import { errorHtml, FAVICON, indexHtml, moneroPayHtml, orderHtml, privacyHtml, termsHtml, trackingHtml } from './pages.js';
import { catalogJson, llmsTxt, trackingJson } from './views.js';
import { registerWebhooks } from './webhooks.js';

export interface CatalogAppOptions {
  config: CatalogConfig;
  dataDir: string;
  sync?: 'normal' | 'full';
  trustProxy?: boolean | string;
  /** Tokens accepted on /api/admin/* (the commons' ops and admin tokens). */
  opsTokens?: string[];
  /** false, or pino options (a request serializer that masks tracking tokens is added). */
  logger?: false | Record<string, unknown>;
  /** CX_LOG=pretty: one short line per request instead of fastify's two JSON lines (src/http/log-format.ts). */
  prettyLog?: boolean;
  now?: () => number;
}

/** Tracking tokens travel in paths: logs keep only the route shape. */
const maskPath = (url: string) => clip(url.split('?')[0]!.replace(/^\/o\/[^/]+/, '/o/***'));
const serializers = {
  req(req: FastifyRequest) {
    return { id: req.id, method: req.method, url: maskPath(req.url), net: netKey(req.ip) };
  },
};

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex',
  'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
};
/** The order page posts its form to CATALOG_BASE_URL, which may be another name of this host. */
const INDEX_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";
const ERROR_HEADERS = { 'x-robots-tag': 'noindex', 'content-security-policy': INDEX_CSP };

export async function buildCatalogApp(opts: CatalogAppOptions): Promise<FastifyInstance> {
  const cfg = opts.config;
  const now = opts.now ?? Date.now;
  const app = Fastify({
    logger: opts.logger ? { ...opts.logger, serializers } : false,
    ...(opts.prettyLog ? { logController: prettyRequests(maskPath) } : {}),
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: CATALOG_LIMITS.order_body,
    frameworkErrors: (err, req, reply) => fail(req, reply, toCxError(err, req)),
    routerOptions: { maxParamLength: CATALOG_LIMITS.url_param },
    // Requests Node's parser refuses get the one-line form too, not fastify's JSON.
    clientErrorHandler,
    // Drain requests on open connections while closing rather than fastify's own JSON 503.
    return503OnClosing: false,
    // A missing Host answered in one line, headers due within http.headers_timeout (src/http/wire.ts).
    http: serverOptions(),
  });
  nosniffEvery(app.server);
  // Hoisted for frameworkErrors: the offer is built below, before the app listens.
  let offer: ReturnType<typeof buildOffer>;
  /** Where a refused request leads back to: the order page of the product it named, else the list. */
  const backFor = (req: FastifyRequest) => {
    const slug = (req.body as Record<string, unknown> | undefined)?.product;
    const p = req.url.startsWith('/api/order') && typeof slug === 'string' ? cfg.catalog.products.find((x) => x.slug === slug) : undefined;
    return p ? { href: `/order/${p.slug}`, label: `Back to the order form for ${p.name}` } : { href: '/', label: 'All servers' };
  };
  function fail(req: FastifyRequest, reply: FastifyReply, err: CxError): FastifyReply {
    if (!wantsHtml(req) || !offer) return sendErr(req, reply, err);
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    reply.headers({ 'cache-control': 'no-store', ...ERROR_HEADERS });
    return reply
      .code(err.status)
      .type(HTML)
      .send(errorHtml(offer, err, backFor(req)));
  }
  const store = openCatalogStore(opts.dataDir, opts.sync);
  const rpc = new MoneroRpc(cfg.monero);
  const adapters = { stripe: stripeAdapter(cfg.stripe), btcpay: btcpayAdapter(cfg.btcpay), monero: moneroAdapter(cfg.monero, rpc) };
  const orders = new Orders({ cfg, store, adapters, now });
  const quota = new OrderQuota(cfg.ordersPerHour, now);
  const poller = adapters.monero.missing().length ? null : startMoneroPoller(cfg.monero, rpc, store, orders, now, app.log);
  app.addHook('onClose', async () => {
    await poller?.stop();
    await store.close();
  });

  // While closing, requests on open connections get 503 err busy with Connection: close.
  drainOnClose(app, CATALOG_LIMITS.shutdown_drain_ms);
  await app.register(formbody, { bodyLimit: CATALOG_LIMITS.order_body });
  // Forms (and JSON, which fastify parses) only: a text body is a 415, not a half-read order.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (req) => {
    if (missingHost(req.raw)) throw missingHostError();
  });
  // Every HTML reply has a CSP: one that set none gets the catalog pages' policy.
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html') && !reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', INDEX_CSP);
    done(null, payload);
  });
  app.setErrorHandler((err, req, reply) => fail(req, reply, toCxError(err, req)));
  app.setNotFoundHandler((req, reply) =>
    fail(req, reply, new CxError('notfound', `no route ${req.method} ${req.url.startsWith('/o/') ? '/o/…' : req.url.split('?')[0]!.slice(0, 120)}`)),
  );

  // Methods buyers can use now: configured providers, and always a quote.
  const payments: PaymentMethod[] = [...(['stripe', 'btcpay', 'monero'] as const).filter((m) => !adapters[m].missing().length), 'quote'];
  offer = buildOffer(cfg, payments);
  const catalogDoc = staticDoc(JSON.stringify(catalogJson(offer)), JSON_T);
  const llmsDoc = staticDoc(llmsTxt(offer), TEXT);
  const indexDoc = indexHtml(offer);
  const orderDocs = new Map(cfg.catalog.products.map((p) => [p.slug, orderHtml(offer, p)]));
  const maxAge = CATALOG_LIMITS.catalog_max_age_s;
  const page = (reply: FastifyReply, html: string) =>
    reply
      .headers({ 'cache-control': `public, max-age=${maxAge}`, 'content-security-policy': INDEX_CSP })
      .type(HTML)
      .send(html);

  app.get('/', async (_req, reply) => page(reply, indexDoc));
  app.get('/order/:slug', async (req, reply) => {
    const doc = orderDocs.get((req.params as { slug: string }).slug);
    if (!doc) throw new CxError('notfound', 'no such product, see /api/catalog.json');
    return page(reply, doc);
  });
  app.get('/favicon.svg', async (_req, reply) => reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(FAVICON));
  app.get('/favicon.ico', async (_req, reply) => reply.code(301).header('location', '/favicon.svg').send());
  // The operator's own pages when configured; otherwise ours, saying plainly that they are not set.
  const termsDoc = termsHtml(offer);
  const privacyDoc = privacyHtml(offer);
  app.get('/terms', async (_req, reply) => (cfg.seller.termsUrl ? reply.code(303).header('location', cfg.seller.termsUrl).send() : page(reply, termsDoc)));
  app.get('/privacy', async (_req, reply) =>
    cfg.seller.privacyUrl ? reply.code(303).header('location', cfg.seller.privacyUrl).send() : page(reply, privacyDoc),
  );
  app.get('/api/catalog.json', async (req, reply) => sendStatic(req, reply, catalogDoc, maxAge));
  app.get('/llms.txt', async (req, reply) => sendStatic(req, reply, llmsDoc, maxAge));
  app.get('/api/health', async (req, reply) => {
    cors(reply);
    reply.header('cache-control', 'no-store');
    try {
      await store.ping();
      return reply.type(JSON_T).send({ ok: true });
    } catch (err) {
      req.log.error({ err: err instanceof Error ? err.message : String(err) }, 'catalog database unusable');
      return reply.code(503).type(JSON_T).send({ ok: false });
    }
  });
  for (const path of ['/api/catalog.json', '/llms.txt', '/api/health']) app.options(path, async (req, reply) => preflight(req, reply));

  app.post('/api/order', async (req, reply) => {
    const input = parseOrder(req.body, cfg.catalog);
    orders.checkAvailable(input.payment);
    const net = netKey(req.ip);
    quota.take(net);
    const p = await orders.place(input, net);
    reply.code(303).header('location', p.next).header('link', `<${p.trackingUrl}>; rel="monitor"`).header('cache-control', 'no-store');
    if (wantsJson(req)) return reply.type(JSON_T).send({ ok: true, id: p.order.id, status: p.order.status, next: p.next, tracking_url: p.trackingUrl });
    return reply.type(TEXT).send(`ok ${p.order.id} ${p.order.status}\nnext: ${p.next}\ntrack: ${p.trackingUrl} (keep this link private)\n`);
  });

  const findOrder = async (token: string) => {
    const o = TOKEN_RE.test(token) ? await store.byTokenHash(tokenHash(token)) : null;
    if (!o) throw new CxError('notfound', 'order');
    return o;
  };

  app.get('/o/:token', async (req, reply) => {
    const { token } = req.params as { token: string };
    const o = await findOrder(token);
    const events = await store.events(o.id);
    const url = orders.trackingUrl(token);
    reply.headers(PAGE_HEADERS);
    if (wantsJson(req)) return reply.type(JSON_T).send(trackingJson(o, events, url));
    const q = req.query as Record<string, unknown>;
    return reply.type(HTML).send(trackingHtml(offer, o, events, url, typeof q.paid === 'string'));
  });

  // Resumes payment from the tracking page: the provider's checkout, or our Monero page.
  app.get('/o/:token/pay', async (req, reply) => {
    const { token } = req.params as { token: string };
    const o = await findOrder(token);
    const url = orders.trackingUrl(token);
    reply.headers(PAGE_HEADERS);
    if (o.status !== 'pending_payment' || o.payment === 'quote' || !o.provider_ref) return reply.code(303).header('location', url).send();
    if (o.checkout_url) return reply.code(303).header('location', o.checkout_url).send();
    if (wantsJson(req)) return reply.type(JSON_T).send(trackingJson(o, await store.events(o.id), url));
    return reply.type(HTML).send(moneroPayHtml(offer, o, url, cfg.monero.confirmations, cfg.monero.ttlH));
  });

  await registerWebhooks(app, cfg, store, orders, now);
  registerAdmin(app, store, orders, opts.opsTokens ?? []);
  return app;
}
