// Crash rounds (issue 24): the real server as a child process, N concurrent writers over the write
// operations of the registry, then `kill -9` (or SIGTERM) mid-load and a restart on the same data
// directory. Checks: every acknowledged write is present (read back through the route the registry
// pairs with it), PRAGMA integrity_check is ok, and with SIGTERM no 5xx and no request that ran but
// whose caller saw the connection reset. Shared by test/suite/crash.test.ts (short) and
// scripts/crash.ts (`npm run crash`, long).
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { limit } from '../../src/core/kernel/limits.js';
import { OPS } from '../../src/compose/registry.js';
import type { AnyOperation } from '../../src/core/kernel/types.js';
import { register } from '../helpers/server.js';
import { inputSchema, validArb, type Json } from './arbitraries.js';
import { freshNet, restRequests } from './faces.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  url: string;
  proc: ChildProcess;
  exited: Promise<{ code: number | null; sig: NodeJS.Signals | null }>;
}

/** The real server (`src/server.ts`) in a child process on `dir`; resolves once it listens. */
export async function serve(dir: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Child> {
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CX_DATA: dir,
      PORT: '0',
      CATALOG_PORT: '0',
      HOST: '127.0.0.1',
      CX_POW_BITS: '8',
      CX_BASE_URL: 'http://commons.test',
      CX_SEED: '0',
      CX_LOG_LEVEL: 'info',
      CX_TRUST_PROXY: '1',
      CX_GIT_MIRROR: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((res) => proc.once('exit', (code, sig) => res({ code, sig })));
  proc.stderr!.resume();
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    const t = setTimeout(() => (proc.kill('SIGKILL'), rej(new Error('server did not start'))), 60_000);
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      if (out.length < 1_000_000) out += d;
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        clearTimeout(t);
        res(m[1]!);
      }
    });
    proc.once('exit', () => rej(new Error(`server exited before listening: ${out.slice(-500)}`)));
  });
  return { url, proc, exited };
}

/** A route that reads back what a write made: GET/HEAD at the write's own path, without `/v1`, or at `<path>/:id`. */
export interface Readback {
  op: AnyOperation;
  path(input: Record<string, Json>, out: Record<string, unknown>): string | null;
  method: 'GET' | 'HEAD';
}

const reads = OPS.filter((o) => o.readOnly && o.rest && (o.rest.method === 'GET' || o.rest.method === 'HEAD') && !o.stream);
function readRoute(path: string): AnyOperation | undefined {
  const at = reads.filter((o) => o.rest!.path === path);
  // A HEAD counts nothing (a GET of a drop burns a read).
  return at.find((o) => o.rest!.method === 'HEAD') ?? at[0];
}

const fill = (path: string, v: Record<string, unknown>) => {
  let ok = true;
  const p = path.replace(/:(\w+)/g, (_m, k: string) => {
    const x = v[k];
    if (typeof x !== 'string' && typeof x !== 'number') ok = false;
    return encodeURIComponent(String(x));
  });
  return ok ? p : null;
};

/** The read-back of a write operation, derived from the registry's routes (none: not checkable). */
export function readbackOf(op: AnyOperation): Readback | null {
  const p = op.rest!.path;
  for (const cand of [p, p.replace(/^\/v1\//, '/')]) {
    const r = cand !== p || op.rest!.method === 'PUT' ? readRoute(cand) : undefined;
    if (r) return { op: r, method: r.rest!.method as 'GET' | 'HEAD', path: (i) => fill(cand, i) };
  }
  const byId = readRoute(`${p}/:id`);
  if (byId) return { op: byId, method: byId.rest!.method as 'GET' | 'HEAD', path: (_i, out) => (typeof out.id === 'string' ? fill(`${p}/:id`, out) : null) };
  return null;
}

/** The writes the rounds drive: agent write operations with a token and a read-back route. */
export function writeOps(): Array<{ op: AnyOperation; back: Readback }> {
  return OPS.filter((o) => !o.readOnly && o.rest && (o.rest.method === 'POST' || o.rest.method === 'PUT') && o.auth === 'token' && !o.stream)
    .map((op) => ({ op, back: readbackOf(op) }))
    .filter((x): x is { op: AnyOperation; back: Readback } => x.back !== null);
}

export interface Ack {
  op: AnyOperation;
  back: Readback;
  input: Record<string, Json>;
  out: Record<string, unknown>;
  token: string;
}

export interface RoundResult {
  signal: 'SIGKILL' | 'SIGTERM';
  acked: number;
  /** Acknowledged marker notes (one per writer request on note.create with a unique title). */
  markers: number;
  lost: string[];
  integrity: string;
  fiveXX: string[];
  resetButRan: string[];
  /** Markers answered 503 busy that ran anyway (a refusal must mean "not done"). */
  refusedButRan: string[];
  refused: number;
  resets: number;
  byOp: Record<string, number>;
}

function level3(dir: string, ids: string[]): void {
  const db = new Database(join(dir, 'commons.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const st = db.prepare('UPDATE identities SET rep = 100, confirmed = 20, created = ? WHERE id = ?');
    for (const id of ids) st.run(Date.now() - 31 * 86_400_000, id);
  } finally {
    db.close();
  }
}

/**
 * One round: `writers` concurrent writers (each its own L3 identity), a signal once `ackTarget`
 * writes were acknowledged (or after `maxMs`), a restart, and the checks.
 */
export async function round(opts: {
  signal: 'SIGKILL' | 'SIGTERM';
  writers: number;
  ackTarget: number;
  maxMs: number;
  seed: number;
  log?: (s: string) => void;
}): Promise<RoundResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-crash-'));
  const log = opts.log ?? (() => undefined);
  const children: Child[] = [];
  try {
    const first = await serve(dir);
    children.push(first);
    const users: Array<{ id: string; token: string }> = [];
    for (let i = 0; i < opts.writers; i++) users.push(await register(first.url, `crash_${i}`, { 'x-forwarded-for': freshNet() }));
    level3(
      dir,
      users.map((u) => u.id),
    );
    const writes = writeOps();
    const rng = fc.sample(fc.tuple(fc.integer({ min: 0, max: writes.length - 1 }), fc.integer({ min: 0, max: 1e9 })), { numRuns: 20_000, seed: opts.seed });
    const acks: Ack[] = [];
    const markers: Array<{ token: string; title: string; ran: 'ack' | 'reset' | 'refused' }> = [];
    const fiveXX: string[] = [];
    let stop = false;
    let next = 0;
    let resets = 0;
    const writer = async (w: number) => {
      const u = users[w]!;
      for (let seq = 0; !stop; seq++) {
        const h = { authorization: `Bearer ${u.token}`, 'x-forwarded-for': freshNet(), accept: 'application/json' };
        // Every other request is a marker note: unique, so a reset one can be looked for after restart.
        if (seq % 2 === 0) {
          const title = `m-${opts.seed}-${w}-${seq}`;
          try {
            const r = await fetch(`${first.url}/v1/notes`, {
              method: 'POST',
              headers: { ...h, 'content-type': 'application/json' },
              body: JSON.stringify({ title, body: `marker ${title}` }),
            });
            const text = await r.text();
            // The one allowed 5xx: 503 err busy with Retry-After (shedding, or the shutdown drain); it must not have run.
            const busy = r.status === 503 && !!r.headers.get('retry-after') && /err busy/.test(text);
            if (r.status >= 500 && !busy) fiveXX.push(`note.create ${r.status} ${text.slice(0, 80)}`);
            if (busy) markers.push({ token: u.token, title, ran: 'refused' });
            if (r.status === 201 || r.status === 200) markers.push({ token: u.token, title, ran: 'ack' });
          } catch {
            resets++;
            markers.push({ token: u.token, title, ran: 'reset' });
            if (opts.signal === 'SIGKILL') return;
            await new Promise((r) => setTimeout(r, 50));
          }
          continue;
        }
        const [i, s] = rng[next++ % rng.length]!;
        const { op, back } = writes[i]!;
        const input = (fc.sample(validArb(inputSchema(op)), { numRuns: 1, seed: s })[0] ?? {}) as Record<string, Json>;
        const req = restRequests(op, input, h).find((r) => r.label === 'json' || r.label === 'raw')!;
        try {
          const r = await fetch(first.url + req.path, { method: req.method, headers: req.headers, body: req.body as string | undefined });
          const text = await r.text();
          if (r.status >= 500 && !(r.status === 503 && r.headers.get('retry-after') && /err busy/.test(text)))
            fiveXX.push(`${op.name} ${r.status} ${text.slice(0, 80)}`);
          if (r.status >= 200 && r.status < 300) acks.push({ op, back, input, out: JSON.parse(text) as Record<string, unknown>, token: u.token });
        } catch {
          resets++;
          if (opts.signal === 'SIGKILL') return;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const t0 = Date.now();
    const running = users.map((_u, w) => writer(w));
    while (acks.length + markers.length < opts.ackTarget && Date.now() - t0 < opts.maxMs) await new Promise((r) => setTimeout(r, 20));
    first.proc.kill(opts.signal);
    const ex = await first.exited;
    stop = true;
    await Promise.all(running);
    log(
      `${opts.signal}: exit code=${ex.code} sig=${ex.sig}; ${acks.length} acked writes, ${markers.filter((m) => m.ran === 'ack').length} acked markers, ${resets} resets`,
    );

    // Restart on the same directory and look for every acknowledged write.
    const second = await serve(dir);
    children.push(second);
    const lost: string[] = [];
    for (const a of acks) {
      const path = a.back.path(a.input, a.out);
      if (!path) continue;
      const r = await fetch(second.url + path, { method: a.back.method, headers: { authorization: `Bearer ${a.token}`, 'x-forwarded-for': freshNet() } });
      await r.arrayBuffer();
      if (r.status !== 200) lost.push(`${a.op.name} → ${a.back.method} ${path}: ${r.status}`);
    }
    const present = new Map<string, Set<string>>();
    for (const u of users) {
      const titles = new Set<string>();
      let cursor: string | null = null;
      do {
        const q: string = `?n=${limit('ws.page')}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const r = await fetch(`${second.url}/v1/notes${q}`, {
          headers: { authorization: `Bearer ${u.token}`, accept: 'application/json', 'x-forwarded-for': freshNet() },
        });
        const j = (await r.json()) as { rows: { title: string }[]; next: string | null };
        if (!Array.isArray(j.rows)) throw new Error(`note.list: ${r.status} ${JSON.stringify(j)}`);
        for (const row of j.rows) titles.add(row.title);
        cursor = j.next;
      } while (cursor);
      present.set(u.token, titles);
    }
    const resetButRan: string[] = [];
    const refusedButRan: string[] = [];
    for (const m of markers) {
      const has = present.get(m.token)!.has(m.title);
      if (m.ran === 'ack' && !has) lost.push(`note.create marker ${m.title}`);
      if (m.ran === 'reset' && has && opts.signal === 'SIGTERM') resetButRan.push(m.title);
      if (m.ran === 'refused' && has) refusedButRan.push(m.title);
    }
    const db = new Database(join(dir, 'commons.db'), { readonly: true });
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join(',');
    db.close();
    second.proc.kill('SIGTERM');
    await second.exited;
    const byOp: Record<string, number> = {};
    for (const a of acks) byOp[a.op.name] = (byOp[a.op.name] ?? 0) + 1;
    return {
      signal: opts.signal,
      acked: acks.length,
      markers: markers.filter((m) => m.ran === 'ack').length,
      lost,
      integrity,
      fiveXX,
      resetButRan,
      refusedButRan,
      refused: markers.filter((m) => m.ran === 'refused').length,
      resets,
      byOp,
    };
  } finally {
    // A failed round leaves no server behind.
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
