// The A2A face: POST /a2a (the commons' skills), POST /a2a/{id} (hosted agents), agent cards.
// Skills are the registry's agent-facing operations, run through the one pipeline (invoke).
import { bindRaw } from '../http/raw.js';
import { a2aCardRoutes, a2aRpcRoutes } from './raw-routes.js';
import { TaskState } from '@a2a-js/sdk';
import { ResultManager } from '@a2a-js/sdk/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { notFound } from '../core/kernel/errors.js';
import { onInboundSettled, type InboundSettled } from '../core/agents/events.js';
import { limit } from '../core/kernel/limits.js';
import type { Core, Operation } from '../core/kernel/types.js';
import { face } from '../http/plugin.js';
import { BusManager } from './buses.js';
import { commonsCard, hostedCard, type CardPair } from './cards.js';
import { ownerContext, scopeOf } from './context.js';
import { agentMessage, artifactEvent, HostedExecutor, SkillExecutor, statusEvent, textPart } from './executor.js';
import { CxRequestHandler } from './handler.js';
import { PushSender, type Resolve } from './push.js';
import { endpoint, Rpc } from './rpc.js';
import { Skills } from './skills.js';
import { SqlitePushStore, SqliteTaskStore } from './stores.js';
import { FINAL, startTaskSweep } from './sweep.js';

const FINAL_SET = new Set(FINAL);

export interface A2aOptions {
  /** How push targets' host names resolve (tests inject a stub; default: the system resolver). */
  resolve?: Resolve;
}

export function registerA2a(app: FastifyInstance, core: Core, ops: readonly Operation[], opts: A2aOptions = {}): { close(): void } {
  const { config, store } = core;
  const base = config.baseUrl;
  const skills = new Skills(ops);
  const card = commonsCard(base, core.version, skills);
  const tasks = new SqliteTaskStore(store.a2a, core.now);
  const pushStore = new SqlitePushStore(store.a2a, core.now, config.a2aPushAllowLoopback, opts.resolve);
  const sender = new PushSender(pushStore, {
    allowLoopback: config.a2aPushAllowLoopback,
    timeoutMs: limit('a2a.push_timeout') * 1000,
    tries: limit('a2a.push_tries'),
    log: core.log,
    resolve: opts.resolve,
  });
  const buses = new BusManager(limit('a2a.live'));
  const hostedExec = new HostedExecutor(core, buses, tasks);

  const commons = endpoint(
    new CxRequestHandler({ card: card.v10, tasks, executor: new SkillExecutor(core, skills, tasks), buses, push: { store: pushStore, sender } }),
  );
  // One handler serves every hosted agent; the agent is part of each call's scope.
  const generic = hostedCard(base, core.version, {
    id: 'agent',
    name: 'hosted agent',
    description: 'hosted agent',
    tags: [],
    inbound: true,
    created: 0,
    updated: 0,
  });
  const hosted = endpoint(
    new CxRequestHandler({
      card: generic.v10,
      tasks,
      executor: hostedExec,
      buses,
      afterCancel: async (task, ctx) => {
        hostedExec.forget(task.id);
        if (scopeOf(ctx).agent) await store.agents.settle(task.id, 'canceled', null, core.now());
      },
    }),
  );
  const rpc = new Rpc(core, () => tasks.flushed());

  /** The owner's answer completes the sender's task, in the store and on any open stream. */
  async function deliver(e: InboundSettled): Promise<void> {
    const ctx = ownerContext(e.sender, e.agent);
    const task = await tasks.load(e.task, ctx);
    if (!task) return;
    const events =
      e.state === 'completed'
        ? [
            artifactEvent(task.id, task.contextId, {
              artifactId: 'answer',
              name: 'answer',
              description: `answer from ${e.agent} (untrusted)`,
              parts: [textPart(e.text)],
              metadata: undefined,
              extensions: [],
            }),
            statusEvent(task.id, task.contextId, TaskState.TASK_STATE_COMPLETED),
          ]
        : [statusEvent(task.id, task.contextId, TaskState.TASK_STATE_REJECTED, agentMessage(task.id, task.contextId, [textPart(e.text)]))];
    const rm = new ResultManager(tasks, ctx);
    for (const ev of events) await rm.processEvent(ev);
    // Stored before the inbound item may be marked as delivered.
    await tasks.flushed();
    const bus = buses.watched(task.id, e.sender, e.agent);
    for (const ev of events) bus?.publish(ev);
    buses.unwatch(task.id, e.sender, e.agent);
    hostedExec.forget(task.id);
  }
  onInboundSettled(core, deliver);

  // After a restart: watch the open inbound tasks again, and finish answers that did not arrive.
  app.addHook('onReady', async () => {
    for (const r of await store.agents.pending()) {
      try {
        if (r.state === 'open') {
          const t = await tasks.load(r.task, ownerContext(r.sender, r.agent));
          if (!t) continue;
          if (FINAL_SET.has(t.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) await store.agents.settle(r.task, 'canceled', null, core.now());
          else {
            buses.watchTask(r.task, r.sender, r.agent);
            hostedExec.remember(r.task, t.contextId);
          }
        } else if (r.state === 'completed' || r.state === 'rejected') {
          await deliver({ task: r.task, agent: r.agent, sender: r.sender, state: r.state, text: r.answer ?? '' });
          await store.agents.markSynced(r.task);
        }
      } catch (err) {
        core.log.error({ err, task: r.task }, 'a2a inbound repair failed');
      }
    }
  });
  // Retention: started once the service is up (after the repair above), stopped before the database closes.
  let stopSweep = () => {};
  app.addHook('onReady', async () => {
    stopSweep = startTaskSweep(core, tasks);
  });
  app.addHook('onClose', async () => stopSweep());
  // Open streams would keep close() waiting.
  app.addHook('preClose', async () => buses.closeAll());
  // Tasks saved by the last requests are written before the database closes.
  app.addHook('onClose', async () => tasks.flushed().catch((err) => core.log.error({ err }, 'a2a tasks not written at close')));

  void app.register(async (scope) => {
    // JSON arrives as text so malformed JSON gets a JSON-RPC parse error (-32700), not err bad.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    const bodyLimit = limit('a2a.body');
    const serveCommons = (req: FastifyRequest, reply: FastifyReply) => rpc.serve(req, reply, commons, { kind: 'commons', skills });
    bindRaw(scope, a2aRpcRoutes, {
      core,
      handlers: {
        commons: { bodyLimit, handle: serveCommons },
        commonsSlash: { bodyLimit, handle: serveCommons },
        hosted: {
          bodyLimit,
          async handle(req, reply) {
            const id = (req.params as { id: string }).id;
            const rec = /^a[0-9a-z]{1,6}$/.test(id) ? await store.agents.card(id) : null;
            if (!rec) throw notFound('no agent card for this id');
            return rpc.serve(req, reply, hosted, { kind: 'hosted', agent: id, inbound: rec.inbound, skills });
          },
        },
      },
    });
  });

  // The commons card changes only with a new version of the service, so with the process.
  const started = core.now();
  const sendCard = (req: FastifyRequest, reply: FastifyReply, c: CardPair, modified: number, maxAge = 300) => {
    const v1 = /^1\.0(\.\d+)?$/.test(String(req.headers['a2a-version'] ?? '').trim());
    const body = serialized(c, v1);
    reply
      .header('cache-control', `public, max-age=${maxAge}`)
      .header('access-control-allow-origin', '*')
      .header('vary', 'A2A-Version')
      .header('etag', body.etag)
      .header('last-modified', new Date(Math.floor(modified / 1000) * 1000).toUTCString());
    if (notModified(req, body.etag, modified)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body.json);
  };
  bindRaw(app, a2aCardRoutes, {
    core,
    handlers: {
      agent: { handle: (req, reply) => sendCard(req, reply, card, started) },
      agentCard: { handle: (req, reply) => sendCard(req, reply, card, started) },
      hostedCard: {
        async handle(req, reply) {
          const id = (req.params as { id: string }).id;
          const rec = /^a[0-9a-z]{1,6}$/.test(id) ? await store.agents.card(id) : null;
          if (!rec) throw notFound('no agent card');
          return sendCard(req, reply, hostedCard(base, core.version, rec), rec.updated || started, 60);
        },
      },
    },
  });

  return { close: () => buses.closeAll() };
}

/** A card's body and its validator, made once per card object. */
const bodies = new WeakMap<CardPair, { v03?: { json: string; etag: string }; v10?: { json: string; etag: string } }>();
function serialized(c: CardPair, v1: boolean): { json: string; etag: string } {
  let m = bodies.get(c);
  if (!m) bodies.set(c, (m = {}));
  const k = v1 ? 'v10' : 'v03';
  if (!m[k]) {
    const json = JSON.stringify(v1 ? c.v10json : c.v03);
    m[k] = { json, etag: `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"` };
  }
  return m[k];
}

/** If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2). */
function notModified(req: FastifyRequest, etag: string, modified: number): boolean {
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string') return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
  const ims = req.headers['if-modified-since'];
  if (typeof ims !== 'string') return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(modified / 1000) * 1000 <= since;
}

/** The A2A face as a plugin of the shared host. */
export const a2aFace = face<{ core: Core; ops: readonly Operation[] } & A2aOptions>('a2a', async (app, { core, ops, resolve }) => {
  registerA2a(app, core, ops, { resolve });
});
