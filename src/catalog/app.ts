// Part B, the hosting catalog: its own fastify instance on CATALOG_PORT with its own database
// (catalog.db). Catalog JSON and llms.txt from the operator's products file, form orders with a
// redirect to the payment provider, private tracking pages, provider webhooks, health.
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { CxError } from '../core/errors.js';
import { clip } from '../http/logging.js';
import { clientErrorHandler, drainOnClose } from '../http/wire.js';
import { netKey } from '../core/net.js';
import { registerAdmin } from './admin.js';
import type { CatalogConfig } from './config.js';
import { cors, HTML, JSON_T, preflight, sendErr, sendStatic, staticDoc, TEXT, toCxError, wantsJson } from './http.js';
import { CATALOG_LIMITS } from './limits.js';
import { startMoneroPoller } from './monero-poll.js';
import { Orders, parseOrder, TOKEN_RE, tokenHash } from './orders.js';
import { btcpayAdapter } from './pay/btcpay.js';
import { MoneroRpc, moneroAdapter } from './pay/monero.js';
import { stripeAdapter } from './pay/stripe.js';
import { OrderQuota } from './quota.js';
import { openCatalogStore } from './sqlite.js';
import type { PaymentMethod } from './store.js';
import { catalogJson, indexHtml, llmsTxt, moneroPayHtml, trackingHtml, trackingJson } from './views.js';
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
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
};
/** The order page posts its form to CATALOG_BASE_URL, which may be another name of this host. */
const INDEX_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

export async function buildCatalogApp(opts: CatalogAppOptions): Promise<FastifyInstance> {
  const cfg = opts.config;
  const now = opts.now ?? Date.now;
  const app = Fastify({
    logger: opts.logger ? { ...opts.logger, serializers } : false,
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: CATALOG_LIMITS.order_body,
    frameworkErrors: (err, req, reply) => sendErr(req, reply, toCxError(err, req)),
    routerOptions: { maxParamLength: CATALOG_LIMITS.url_param },
    // Requests Node's parser refuses get the one-line form too, not fastify's JSON.
    clientErrorHandler,
    // Drain requests on open connections while closing rather than fastify's own JSON 503.
    return503OnClosing: false,
  });
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
  app.addHook('onRequest', async (_req, reply) => {
    reply.header('x-content-type-options', 'nosniff');
  });
  app.setErrorHandler((err, req, reply) => sendErr(req, reply, toCxError(err, req)));
  app.setNotFoundHandler((req, reply) => sendErr(req, reply, new CxError('notfound', `no route ${req.method} ${req.url.startsWith('/o/') ? '/o/…' : req.url.split('?')[0]!.slice(0, 120)}`)));

  // Methods buyers can use now: configured providers, and always a quote.
  const payments: PaymentMethod[] = [...(['stripe', 'btcpay', 'monero'] as const).filter((m) => !adapters[m].missing().length), 'quote'];
  const base = cfg.baseUrl;
  const catalogDoc = staticDoc(JSON.stringify(catalogJson(cfg.catalog, base, payments, cfg.ordersPerHour)), JSON_T);
  const llmsDoc = staticDoc(llmsTxt(cfg.catalog, base, payments, cfg.ordersPerHour), TEXT);
  const indexDoc = indexHtml(cfg.catalog, base, payments);
  const maxAge = CATALOG_LIMITS.catalog_max_age_s;

  app.get('/', async (_req, reply) => reply.headers({ 'cache-control': `public, max-age=${maxAge}`, 'content-security-policy': INDEX_CSP }).type(HTML).send(indexDoc));
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
    return reply.type(HTML).send(trackingHtml(o, events, url, typeof q.paid === 'string'));
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
    return reply.type(HTML).send(moneroPayHtml(o, url, cfg.monero.confirmations, cfg.monero.ttlH));
  });

  await registerWebhooks(app, cfg, store, orders, now);
  registerAdmin(app, store, orders, opts.opsTokens ?? []);
  return app;
}
