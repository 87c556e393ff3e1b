// JSON-RPC in front of the SDK's transport handlers: wire choice by A2A-Version, batches (the SDK
// takes one call), the per-request limits, the checks that must answer before anything runs
// (401, text parts only, inbound closed) and SSE for the streaming methods.
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import {
  ContentTypeNotSupportedError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  UnsupportedOperationError,
  VersionNotSupportedError,
} from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import { taskStateToJSON, type TaskState } from '@a2a-js/sdk';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CxError } from '../core/kernel/errors.js';
import { authError, REGISTER_STEPS, resolveCaller, resolvedOnce } from '../core/platform/identity/auth.js';
import { limit } from '../core/kernel/limits.js';
import { netKey } from '../core/kernel/net.js';
import type { Core } from '../core/kernel/types.js';
import type { HintFace } from '../core/kernel/hints.js';
import { credentialsOf } from '../http/input.js';
import { callContext, type CallFacts } from './context.js';
import type { CxRequestHandler } from './handler.js';
import { contentOfWire, type Skills } from './skills.js';
import { invalidParams } from './validate.js';

type Wire = '0.3' | '1.0';
type Id = string | number | null;
interface Envelope {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

const SEND = new Set(['message/send', 'SendMessage']);
const STREAM_SEND = new Set(['message/stream', 'SendStreamingMessage']);
const STREAMING = new Set(['message/stream', 'tasks/resubscribe', 'SendStreamingMessage', 'SubscribeToTask']);
/** What POST /a2a/{id} serves (spec 4.5), per wire. */
const HOSTED: Record<Wire, Set<string>> = {
  '0.3': new Set(['message/send', 'tasks/get', 'tasks/resubscribe', 'tasks/cancel']),
  '1.0': new Set(['SendMessage', 'GetTask', 'SubscribeToTask', 'CancelTask']),
};

/** JSON-RPC code of a request refused before it ran (auth, quota): implementation-defined server error. */
const REFUSED = -32000;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' };

export interface Endpoint {
  handler: CxRequestHandler;
  v10: JsonRpcTransportHandler;
  v03: LegacyJsonRpcTransportHandler;
}

export function endpoint(handler: CxRequestHandler): Endpoint {
  return { handler, v10: new JsonRpcTransportHandler(handler), v03: new LegacyJsonRpcTransportHandler(handler) };
}

/** Where a call goes: the commons (skills) or one hosted agent whose card is known. */
/** `skills`: the commons' skills, which word a refusal's steps (registration is a commons skill, also for a hosted agent's caller). */
export type Target = { kind: 'commons'; skills: Skills } | { kind: 'hosted'; agent: string; inbound: boolean; skills: Skills };

function wireOf(header: string | string[] | undefined): Wire | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v.trim() === '') return '0.3';
  if (/^0\.3(\.\d+)?$/.test(v.trim())) return '0.3';
  if (/^1\.0(\.\d+)?$/.test(v.trim())) return '1.0';
  return null;
}

function mapError(wire: Wire, err: unknown): Envelope['error'] {
  return wire === '1.0' ? JsonRpcTransportHandler.mapToJSONRPCError(err) : LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(err);
}

/** An answer whose error message names task states (the SDK answers most errors itself, unthrown). */
function named(r: Envelope, wire: Wire): Envelope {
  return r.error ? { ...r, error: { ...r.error, message: stateNames(r.error.message, wire) } } : r;
}

/** The SDK writes a task state as its enum number ("terminal state (3)"): callers read its name. */
function stateNames(message: string, wire: Wire): string {
  return message.replace(/\bstate \((\d+)\)/g, (all, n: string) => {
    const name = taskStateToJSON(Number(n) as TaskState);
    if (name === 'UNRECOGNIZED') return all;
    return `state (${
      wire === '1.0'
        ? name
        : name
            .replace(/^TASK_STATE_/, '')
            .toLowerCase()
            .replace(/_/g, '-')
    })`;
  });
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const validId = (id: unknown): id is Id => id === null || typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
const fault = (id: Id, code: number, message: string): Envelope => ({ jsonrpc: '2.0', id, error: { code, message } });

/** A call that passed the checks, or the answer it gets without running. */
type Vetted = { call: Record<string, unknown>; id: Id; notify: boolean } | { answer: Envelope; notify: boolean };

export class Rpc {
  /** `flushed` resolves once every task saved so far is stored: nothing is answered before that. */
  constructor(
    private core: Core,
    private flushed: () => Promise<void>,
  ) {}

  async serve(req: FastifyRequest, reply: FastifyReply, ep: Endpoint, target: Target): Promise<unknown> {
    const wire = wireOf(req.headers['a2a-version']);
    if (!wire)
      return this.json(reply, {
        jsonrpc: '2.0',
        id: null,
        error: mapError(
          '1.0',
          new VersionNotSupportedError(`A2A-Version ${String(req.headers['a2a-version']).slice(0, 20)} not supported: use 0.3 (default) or 1.0`),
        ),
      });
    // The 1.0 JSON-RPC binding names its media type; 0.3 clients were never told, so they are read leniently.
    if (wire === '1.0' && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(String(req.headers['content-type'] ?? ''))) {
      return this.json(reply, { jsonrpc: '2.0', id: null, error: mapError(wire, new ContentTypeNotSupportedError('Content-Type: send application/json')) });
    }
    let body: unknown;
    try {
      if (typeof req.body !== 'string') throw new SyntaxError('not text');
      body = JSON.parse(req.body);
    } catch {
      return this.json(reply, fault(null, -32700, 'Parse error: send one JSON-RPC request or a batch array'));
    }
    const batch = Array.isArray(body);
    const calls: unknown[] = batch ? (body as unknown[]) : [body];
    if (batch && calls.length === 0) return this.json(reply, fault(null, -32600, 'Invalid Request: empty batch'));
    if (calls.length > limit('a2a.batch'))
      return this.json(reply, fault(null, -32600, `Invalid Request: batch of ${calls.length}, at most ${limit('a2a.batch')} calls`));

    // Credentials are checked once, before any call runs: a bad token is a 401 for the request.
    const creds = credentialsOf(req);
    let facts: CallFacts;
    const vetted: Vetted[] = [];
    try {
      const caller = await resolveCaller(this.core, creds);
      // The calls' guards take this caller instead of looking the token up again (this request only).
      facts = { creds: resolvedOnce(creds, caller), caller, net: netKey(req.ip), reqId: String(req.id), agent: target.kind === 'hosted' ? target.agent : '' };
      let blocking = 0;
      for (const c of calls) vetted.push(await this.vet(c, wire, batch, target, facts, () => ++blocking));
    } catch (err) {
      if (!(err instanceof CxError)) throw err;
      // Refused as a whole (401, 403, 429): the HTTP status and headers say so, the body is JSON-RPC.
      const one = !batch && isObj(body) && validId(body.id) ? body.id : null;
      return this.refuse(reply, wire, one, err, target.skills.hints);
    }

    if (!batch && 'call' in vetted[0]! && STREAMING.has(vetted[0].call.method as string)) return this.stream(req, reply, ep, wire, vetted[0].call, facts);
    const answers = await Promise.all(vetted.map((v) => ('answer' in v ? v.answer : this.run(ep, wire, v.call, v.id, facts))));
    try {
      await this.flushed();
    } catch (err) {
      // The tasks these answers name were not stored: say so instead of answering.
      const line = this.clean({ jsonrpc: '2.0', id: null, error: { code: -32603, message: '' } }, facts, err);
      const failed = answers.map((a) => ({ ...line, id: a.id }));
      return this.json(reply, batch ? failed : failed[0]!);
    }
    const out = answers.filter((_, i) => !vetted[i]!.notify);
    if (!out.length) return reply.code(204).send();
    return this.json(reply, batch ? out : out[0]!);
  }

  /** Envelope, method and parameter checks; throws a CxError (401, 429) that refuses the whole request. */
  private async vet(c: unknown, wire: Wire, batch: boolean, target: Target, facts: CallFacts, countBlocking: () => number): Promise<Vetted> {
    if (!isObj(c)) return { answer: fault(null, -32600, 'Invalid Request: want a JSON-RPC object'), notify: false };
    const id = validId(c.id) ? c.id : null;
    if (c.jsonrpc !== '2.0' || ('id' in c && !validId(c.id)) || typeof c.method !== 'string' || !c.method) {
      return { answer: fault(id, -32600, 'Invalid Request: want jsonrpc "2.0", a method and an id that is a string, integer or null'), notify: false };
    }
    const notify = !('id' in c);
    const method = c.method;
    if (target.kind === 'hosted' && !HOSTED[wire].has(method))
      return { answer: fault(id, -32601, `Method not found: a hosted agent serves ${[...HOSTED[wire]].join(', ')}`), notify };
    if (batch && STREAMING.has(method)) return { answer: fault(id, -32600, `Invalid Request: ${method} streams and cannot be batched`), notify };
    // Anonymous tasks are found by id only (within their network): listing needs an identity.
    if (method === 'ListTasks' && !facts.caller.identity) throw authError(this.core, 'ListTasks needs a token: anonymous tasks are found by id only');
    const invalid = invalidParams(method, c.params, wire);
    if (invalid) return { answer: { jsonrpc: '2.0', id, error: mapError(wire, new RequestMalformedError(`Invalid params: ${invalid}`)) }, notify };
    if (!SEND.has(method) && !STREAM_SEND.has(method)) return { call: c, id, notify };

    const params = isObj(c.params) ? c.params : {};
    const message = isObj(params.message) ? params.message : null;
    const content = message ? contentOfWire(message.parts, wire) : null;
    // Checked above (invalidParams); kept as a guard.
    if (!content) return { call: c, id, notify };
    const conf = isObj(params.configuration) ? params.configuration : {};
    const err = (e: Error): Vetted => ({ answer: { jsonrpc: '2.0', id, error: mapError(wire, e) }, notify });

    if (target.kind === 'hosted') {
      if (!facts.caller.identity)
        throw authError(this.core, ['a bearer token is needed to message a hosted agent; at the commons endpoint /a2a: ', ...REGISTER_STEPS]);
      if (content.files || content.datas.length) return err(new ContentTypeNotSupportedError('text parts only'));
      const text = content.texts.join('\n');
      if (!text.trim()) return err(new RequestMalformedError('message: empty text'));
      if (text.length > limit('agents.msg')) return err(new RequestMalformedError(`message: at most ${limit('agents.msg')} chars`));
      if (!target.inbound) return err(new UnsupportedOperationError(`inbound closed: ${target.agent} takes no tasks now`));
      if (conf.pushNotificationConfig || conf.taskPushNotificationConfig)
        return err(new PushNotificationNotSupportedError('hosted agents send no push notifications: use tasks/resubscribe or tasks/get'));
      // Frozen identities, the write quota and the scrub are the operation's (agent.message, via invoke).
      return { call: c, id, notify };
    }
    if (content.files) return err(new ContentTypeNotSupportedError('text and data parts only: file parts are not read'));
    if (SEND.has(method)) {
      const isBlocking = wire === '1.0' ? conf.returnImmediately !== true : conf.blocking === true;
      if (isBlocking && countBlocking() > limit('a2a.blocking')) {
        return {
          answer: fault(id, -32600, `Invalid Request: at most ${limit('a2a.blocking')} blocking call per request; send the others non-blocking or apart`),
          notify,
        };
      }
    }
    // A follow-up in an existing task continues its skill; a new one must be allowed to run it.
    if (typeof message!.taskId === 'string' && message!.taskId) return { call: c, id, notify };
    const plan = target.skills.resolve(content);
    if (plan.kind === 'call' && !facts.caller.identity) {
      const op = plan.op;
      if (op.auth === 'token' || (op.auth === 'pow' && !facts.creds.pow)) {
        throw authError(
          this.core,
          [`${op.name} needs a token${op.auth === 'pow' ? ' or an X-PoW proof' : ''}: `, ...REGISTER_STEPS],
          op.auth === 'pow' ? 'w' : 'reg',
        );
      }
    }
    return { call: c, id, notify };
  }

  private async run(ep: Endpoint, wire: Wire, call: Record<string, unknown>, id: Id, facts: CallFacts): Promise<Envelope> {
    const ctx = callContext(facts, wire);
    try {
      const r = (await (wire === '1.0' ? ep.v10 : ep.v03).handle(call, ctx)) as Envelope | AsyncGenerator<Envelope>;
      if (Symbol.asyncIterator in r) {
        await r.return(undefined);
        return fault(id, -32600, 'Invalid Request: streaming method');
      }
      return this.clean(named(r, wire), facts);
    } catch (err) {
      return this.clean(named({ jsonrpc: '2.0', id, error: mapError(wire, err) }, wire), facts, err);
    }
  }

  /** Internal errors never show their message (it could carry SQL or paths). */
  private clean(r: Envelope, facts: CallFacts, err?: unknown): Envelope {
    if (r.error?.code === -32603) {
      this.core.log.error({ err: err ?? r.error.message, req: facts.reqId }, 'a2a call failed');
      return { ...r, error: { code: -32603, message: `err internal request ${facts.reqId}` } };
    }
    return r;
  }

  private async stream(req: FastifyRequest, reply: FastifyReply, ep: Endpoint, wire: Wire, call: Record<string, unknown>, facts: CallFacts): Promise<void> {
    const id = validId(call.id) ? call.id : null;
    const ctx = callContext(facts, wire);
    let it: AsyncIterator<Envelope> | null = null;
    let first: IteratorResult<Envelope> | null = null;
    let early: Envelope | null = null;
    try {
      const r = (await (wire === '1.0' ? ep.v10 : ep.v03).handle(call, ctx)) as Envelope | AsyncGenerator<Envelope>;
      if (Symbol.asyncIterator in r) {
        it = r[Symbol.asyncIterator]();
        first = await it.next();
      } else early = this.clean(r, facts);
    } catch (err) {
      early = this.clean({ jsonrpc: '2.0', id, error: mapError(wire, err) }, facts, err);
    }
    // 1.0 clients take a JSON answer to a stream that fails at once; 0.3 clients insist on SSE.
    if (early && wire === '1.0') return void this.json(reply, named(early, wire));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { ...SSE_HEADERS, 'x-request-id': String(req.id) });
    const send = (raw: Envelope, e = named(raw, wire)) =>
      res.write(e.error ? `event: error\ndata: ${JSON.stringify(e)}\n\n` : `data: ${JSON.stringify(e)}\n\n`);
    // Each event goes out once the task state it shows is stored.
    const write = async (e: Envelope) => {
      await this.flushed().catch((err) => {
        e = this.clean({ jsonrpc: '2.0', id, error: { code: -32603, message: '' } }, facts, err);
      });
      if (!res.writableEnded) send(e);
    };
    if (early) {
      await write(early);
      return void res.end();
    }
    let closed = false;
    res.on('close', () => {
      closed = true;
      // Ends the SDK generator (and its event queue) once its pending step settles.
      void it?.return?.(undefined).catch(() => {});
    });
    try {
      if (first && !first.done) await write(first.value);
      while (!closed && it) {
        const n = await it.next();
        if (n.done) break;
        await write(n.value);
      }
    } catch (err) {
      if (!closed) await write(this.clean({ jsonrpc: '2.0', id, error: mapError(wire, err) }, facts, err));
    } finally {
      if (!res.writableEnded) res.end();
    }
  }

  /** A request refused before any call ran, as a JSON-RPC error with the CxError's status and headers. */
  private refuse(reply: FastifyReply, wire: Wire, id: Id, err: CxError, hints?: HintFace) {
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    // Its steps in A2A terms: the messages that run the skills (REST words where no skill serves them).
    const line = err.lineIn(hints);
    const info = { error: err.code, detail: err.detailIn(hints), status: err.status, line };
    // 1.0 errors carry google.rpc details; 0.3 clients read a plain data object.
    const data =
      wire === '1.0'
        ? [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: err.status === 401 ? 'UNAUTHENTICATED' : err.code.toUpperCase(),
              domain: 'agentcommons',
              metadata: { line },
            },
          ]
        : info;
    const body: Envelope = { jsonrpc: '2.0', id, error: { code: REFUSED, message: line, data } };
    return reply.code(err.status).header('cache-control', 'no-store').type('application/json').send(JSON.stringify(body));
  }

  private json(reply: FastifyReply, body: unknown) {
    return reply.code(200).header('cache-control', 'no-store').type('application/json').send(JSON.stringify(body));
  }
}
