// Generates REST routes from the operation registry: one thin adapter for all of them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { limit, limitOf } from '../core/kernel/limits.js';
import { invoke, type CallMeta } from '../core/platform/invoke.js';
import { InputRefused } from '../core/kernel/input-refused.js';
import { itemsOf } from '../core/kernel/stream.js';
import type { Core, Operation, RestBinding } from '../core/kernel/types.js';
import { netKey } from '../core/kernel/net.js';
import { coerce, credentialsOf, propTypes, type JsonType } from '../http/input.js';
import { HTML, JSON_T, MD, queryF, sendText, TEXT, wantsHtml, wantsJson, wantsText } from '../http/negotiate.js';
import { HTML_VIEWS, mdPage, PAGE_CSP, searchHtml, type HtmlView } from './site.js';
import { GOV_HTML_VIEWS } from './gov.js';
import { RECEIPT_HTML_VIEWS } from './receipts.js';

/** Who is calling and from where: what every REST adapter hands to `invoke`. */
export function restMeta(req: FastifyRequest): CallMeta {
  return { creds: credentialsOf(req), net: netKey(req.ip), reqId: String(req.id), face: 'rest' };
}

/** `body over 16384 bytes`: the words of the limits table, as the op's own check says them. */
function sizeLine(field: string, key: string): string {
  const l = limitOf(key);
  return `${field} over ${l.value} ${l.unit}`;
}

/** Whether the op's text-body field must be given (updates may leave it out). */
function textBodyRequired(op: Operation): boolean {
  const shape = (op.input as unknown as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
  const field = op.rest?.textBody ? shape?.[op.rest.textBody] : undefined;
  return !!field && !field.safeParse(undefined).success;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Input of a route that declares its query fields (and maybe a raw body): nothing else is read. */
function declaredInput(req: FastifyRequest, op: Operation, rest: RestBinding, types: Map<string, JsonType>, raw: Record<string, unknown>): void {
  const allowed = rest.query ?? [];
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (!rest.rawOnly && k === 'f' && (v === 'json' || v === 'txt')) continue;
    // Secrets and keys never travel in query strings (they end up in logs and histories).
    if (!allowed.includes(k)) throw new CxError('bad', `${k.slice(0, 40)}: unknown query parameter`);
    raw[k] = coerce(v, types.get(k));
  }
  for (const [h, field] of Object.entries(rest.headerInputs ?? {})) {
    const v = req.headers[h];
    if (typeof v === 'string') raw[field] = v.trim();
  }
  if (rest.rawBody === 'utf8') textTypeOnly(req, rest);
  if (rest.rawBody && rest.textBody) raw[rest.textBody] = rawBodyOf(req.body, rest.rawBody);
  pathInput(req, rest, types, raw);
}

/**
 * A raw text body is text: a form or JSON body would be stored as its encoding (`curl -d body=x -d
 * once=true` kept "body=x&once=true" and ignored once), so any type but text/* is refused, naming
 * the type to send and where the options go. No Content-Type at all is taken as text.
 */
function textTypeOnly(req: FastifyRequest, rest: RestBinding): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '' || type.startsWith('text/')) return;
  const opts = rest.query?.length ? `; options go in the query (${rest.query.map((q) => `${q}=`).join('&')})` : '';
  throw new CxError('bad', `body: send the text as Content-Type: text/plain, not ${type.slice(0, 60)}${opts}`);
}

function rawBodyOf(b: unknown, as: 'utf8' | 'base64'): string {
  if (b !== undefined && b !== null && !Buffer.isBuffer(b)) throw new CxError('bad', 'body: send it as the raw request body');
  const bytes = b ?? Buffer.alloc(0);
  if (as === 'base64') return bytes.toString('base64');
  try {
    return utf8.decode(bytes);
  } catch {
    throw new CxError('bad', 'body: not valid UTF-8');
  }
}

function pathInput(req: FastifyRequest, rest: RestBinding, types: Map<string, JsonType>, raw: Record<string, unknown>): void {
  for (const [k, v] of Object.entries((req.params ?? {}) as Record<string, unknown>)) {
    const name = rest.paramAlias?.[k] ?? k;
    raw[name] = coerce(v, types.get(name));
  }
}

/** Builds the raw input from path, query, body and mapped headers. */
function rawInput(req: FastifyRequest, op: Operation, types: Map<string, JsonType>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  const rest = op.rest!;
  if (rest.query || rest.rawBody) {
    declaredInput(req, op, rest, types, raw);
    return raw;
  }
  const q = (req.query ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(q)) {
    // f=json|md|txt is negotiation; other f values belong to the op (e.g. f=gha).
    if (k === 'f' && (v === 'json' || v === 'md' || v === 'txt' || (typeof v === 'string' && rest.formats?.[v]) || !types.has('f'))) continue;
    raw[k] = coerce(v, types.get(k));
  }
  pathInput(req, rest, types, raw);
  const body = req.body;
  if (body instanceof InputRefused) throw body.err;
  if (typeof body === 'string') {
    if (rest.textBody) raw[rest.textBody] = body;
    else if (body.trim() !== '') throw new CxError('bad', 'body: send JSON or a form, not text');
  } else if (Buffer.isBuffer(body)) {
    // Routes in the raw-body scope that read no body (a GET or DELETE beside a raw PUT) ignore it.
  } else if (body && typeof body === 'object') {
    if (Array.isArray(body)) throw new CxError('bad', 'body: want an object, not an array');
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    // `curl -d @out.txt` sends raw text labelled as a form: say how to send it instead of naming
    // the stray "fields" the form parser made of it.
    const tb = rest.textBody;
    if (isForm && tb && !(tb in (body as object)) && (textBodyRequired(op) || Object.keys(body).some((k) => !types.has(k))))
      throw new CxError('bad', `${tb}: required (send the text as Content-Type: text/plain, or as form field ${tb})`);
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) raw[k] = isForm ? coerce(v, types.get(k)) : v;
  }
  for (const [h, field] of Object.entries(rest.headerInputs ?? {})) {
    const v = req.headers[h];
    if (typeof v === 'string' && raw[field] === undefined) raw[field] = v.trim();
  }
  return raw;
}

// Memoized renderings of results an op hands out more than once (e.g. the limits table).
const textMemo = new WeakMap<object, string>();
export function render(op: Operation, out: unknown, ctx: Parameters<Operation['text']>[1]): string {
  if (!op.readOnly || typeof out !== 'object' || out === null) return op.text(out, ctx);
  let t = textMemo.get(out);
  if (t === undefined) textMemo.set(out, (t = op.text(out, ctx)));
  return t;
}

// Replies a per-request `signed` predicate chose to sign.
const signThese = new WeakSet<FastifyReply>();

/** onSend hook: signs the serialized body exactly as it leaves (successful replies with a body). */
function signBody(core: Core, always: boolean) {
  return async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if ((always || signThese.has(reply)) && reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      reply.header('x-cx-sig-server', core.keys.header(payload));
    }
    return payload;
  };
}

export function registerOpRoutes(app: FastifyInstance, core: Core, ops: readonly Operation[]): void {
  // A path with a declared HEAD: its GET must not answer HEAD by running (and counting) itself.
  const headPaths = new Set(ops.filter((o) => o.rest?.method === 'HEAD').map((o) => o.rest!.path));
  const plain: Array<() => void> = [];
  // Open event streams (their end functions and networks) end first at close (they would hold
  // close() until the drain gives up); they are also counted against stream.open and stream.open_net.
  const streams = new Map<() => void, string>();
  app.addHook('preClose', async () => {
    for (const end of [...streams.keys()]) end();
  });
  const rawScoped: Array<(scope: FastifyInstance) => void> = [];
  for (const op of ops) {
    const rest = op.rest;
    if (!rest) continue;
    const types = propTypes(op);
    const handler = (forced?: 'json' | 'md' | 'txt' | 'svg' | 'html') => async (req: FastifyRequest, reply: FastifyReply) => {
      let raw: Record<string, unknown>;
      try {
        raw = rawInput(req, op, types);
      } catch (e) {
        // An input that cannot be read is refused by the validate guard, after auth (src/core/kernel/input-refused.ts).
        if (e instanceof CxError && e.code === 'bad') await invoke(core, op, new InputRefused(e), restMeta(req));
        throw e;
      }
      if (typeof rest.signed === 'function' && rest.signed(raw)) signThese.add(reply);
      if (op.stream) return serveStream(req, reply, core, op, raw, streams);
      if (!forced && rest.htmlRedirect && wantsHtml(req)) return reply.code(301).header('location', rest.htmlRedirect(raw)).header('vary', 'accept').send();
      // Browsers get the KB listings as pages (src/rest/site.ts); the search page also without a query.
      const htmlView = (HTML_VIEWS[op.name] ?? GOV_HTML_VIEWS[op.name] ?? RECEIPT_HTML_VIEWS[op.name]) as HtmlView | undefined;
      const view = !forced && !queryF(req) && htmlView && wantsHtml(req) ? htmlView : undefined;
      if (view) reply.header('vary', 'accept').header('content-security-policy', PAGE_CSP);
      if (view && op.name === 'kb.search') {
        const q = typeof raw.q === 'string' ? raw.q : '';
        if (!q) return reply.type(HTML).send(searchHtml(core.config.baseUrl, '', null));
        const r = await invoke(core, op, raw, restMeta(req)).catch((e: unknown) => ({ err: e }));
        if ('err' in r) {
          if (r.err instanceof CxError && r.err.code === 'bad')
            return reply
              .code(r.err.status)
              .type(HTML)
              .send(searchHtml(core.config.baseUrl, q, null, r.err.detail));
          throw r.err;
        }
        return reply
          .header('cache-control', 'no-store')
          .type(HTML)
          .send(view(r.out, raw, core.config.baseUrl));
      }
      const { out, ctx } = await invoke(core, op, raw, restMeta(req));
      if (view)
        return reply
          .header('cache-control', rest.cache ?? 'no-store')
          .type(HTML)
          .send(view(out, raw, core.config.baseUrl));
      for (const [k, v] of Object.entries(op.headers?.(out, ctx) ?? {})) reply.header(k, v);
      for (const [k, v] of Object.entries(rest.replyHeaders ?? {})) reply.header(k, v);
      // An op's own Cache-Control for this result (a member's private entry) wins over the route's.
      if (rest.cache && !reply.hasHeader('cache-control')) reply.header('cache-control', rest.cache);
      const status = rest.statusOf?.(out) ?? rest.status ?? 200;
      reply.code(status);
      if (rest.method === 'HEAD') return reply.send();
      const location = rest.redirect?.(out);
      if (location) return reply.code(303).header('location', location).type(TEXT).send(`see ${location}\n`);
      if (rest.raw && (rest.rawOnly || !(forced === 'json' || (!forced && wantsJson(req))))) {
        const r = rest.raw(out);
        return reply.type(r.type).send(r.body);
      }
      const f = forced ?? queryF(req);
      const extra = !forced && f ? rest.formats?.[f] : undefined;
      if (extra) return sendText(reply, extra(out, ctx), status);
      if ((forced === 'html' || (!forced && !f && wantsHtml(req))) && rest.htmlTitle && op.md) {
        if (!forced) reply.header('vary', 'accept');
        return reply
          .header('content-security-policy', PAGE_CSP)
          .type(HTML)
          .send(mdPage(rest.htmlTitle(out), op.md(out, ctx), { base: core.config.baseUrl }));
      }
      if (forced === 'svg' && op.svg) return reply.type('image/svg+xml; charset=utf-8').send(op.svg(out, ctx));
      if (forced === 'json' || (!forced && (rest.defaultJson ? !wantsText(req) : wantsJson(req)))) {
        if (rest.defaultJson && !forced) reply.header('vary', 'accept');
        return reply.type(JSON_T).send(out);
      }
      if (f === 'md' && op.md) return reply.type(MD).send(op.md(out, ctx));
      return sendText(reply, render(op, out, ctx), status);
    };
    const opts = {
      bodyLimit: rest.bodyLimit ?? limit('body.default'),
      // The host's JSON parser hands a malformed body to the handler (src/http/host.ts): refused after auth.
      config: { cxOp: true, ...(rest.sizeLimit && rest.textBody ? { sizeLine: sizeLine(rest.textBody, rest.sizeLimit) } : {}) },
      ...(rest.method === 'GET' && headPaths.has(rest.path) ? { exposeHeadRoute: false } : {}),
      ...(rest.signed ? { onSend: signBody(core, rest.signed === true) } : {}),
    };
    const add = (scope: FastifyInstance) => {
      scope.route({ method: rest.method, url: rest.path, ...opts, handler: handler() });
      for (const t of rest.twins ?? []) scope.route({ method: rest.method, url: `${rest.path}.${t}`, ...opts, handler: handler(t) });
    };
    // Routes that declare their input take every body as bytes (curl -d sends raw text labelled as a form).
    if (rest.query || rest.rawBody) rawScoped.push(add);
    else plain.push(() => add(app));
  }
  for (const p of plain) p();
  if (rawScoped.length) {
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      for (const add of rawScoped) add(scope);
    });
  }
}

/**
 * A streaming op as `text/event-stream`: one event per item (id = the item's resume id; data = its
 * text, or JSON when asked), a comment every stream.heartbeat seconds, resume from Last-Event-ID or
 * `?last_event_id`. It runs until the client goes (or the server closes); then the op's iterator is
 * closed and its subscription aborted, so nothing is left behind.
 */
async function serveStream(
  req: FastifyRequest,
  reply: FastifyReply,
  core: Core,
  op: Operation,
  raw: Record<string, unknown>,
  streams: Map<() => void, string>,
): Promise<void> {
  const spec = op.stream!;
  const meta = restMeta(req);
  if (streams.size >= limit('stream.open')) throw new CxError('busy', 'too many open streams', 503, { 'Retry-After': String(limit('shed.retry_after')) });
  let mine = 0;
  for (const net of streams.values()) if (net === meta.net) mine++;
  if (mine >= limit('stream.open_net')) throw new CxError('quota', `at most ${limit('stream.open_net')} open streams per network; close one first`, 429);
  const json = wantsJson(req);
  const lastId = raw.last_event_id ?? req.headers['last-event-id'];
  delete raw.last_event_id;
  if (typeof lastId === 'string' && lastId !== '' && raw[spec.resume] === undefined) raw[spec.resume] = lastId;
  const stop = new AbortController();
  const { out, ctx } = await invoke(core, op, raw, { ...meta, signal: stop.signal });
  const it = itemsOf(out)[Symbol.asyncIterator]();
  reply.hijack();
  const res = reply.raw;
  // Connection: close, so that ending a stream (client gone, server closing) also ends its socket;
  // sockets with no request in flight are the host's to close at shutdown (src/http/wire.ts).
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    connection: 'close',
    'x-request-id': String(req.id),
  });
  res.write(`: ${op.name}\n\n`);
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), limit('stream.heartbeat') * 1000);
  const end = () => {
    clearInterval(heartbeat);
    stop.abort();
    void it.return?.().catch(() => undefined);
    if (!res.writableEnded) res.end();
  };
  streams.set(end, meta.net);
  res.on('close', end);
  try {
    for (;;) {
      const n = await it.next();
      if (n.done || res.writableEnded) break;
      const data = json ? JSON.stringify(n.value.item) : spec.text(n.value.item, ctx);
      // A slow reader holds the next item back (the subscription buffers, bounded) instead of the socket.
      if (
        !res.write(
          `id: ${n.value.id}\n${data
            .split('\n')
            .map((l) => `data: ${l}`)
            .join('\n')}\n\n`,
        )
      )
        await new Promise((r) => (res.once('drain', r), res.once('close', r)));
    }
  } catch (err) {
    core.log.error({ err, op: op.name }, 'stream failed');
    if (!res.writableEnded) res.write(`event: error\ndata: err internal request ${req.id}\n\n`);
  } finally {
    streams.delete(end);
    end();
  }
}
