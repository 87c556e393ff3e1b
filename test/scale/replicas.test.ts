// N replicas on one PostgreSQL behind a real load balancer (issue 23): 3 replicas of the real
// server (child processes, one data directory for the shared keys, CX_DATABASE_URL) and HAProxy
// with deploy/haproxy.cfg, on loopback ports. Registered only with a real server (CX_PG_REAL, set
// by scripts/pg-test.sh) and haproxy installed. What it shows, each across replicas: a PoW proof is
// spent once; a drop's reads are counted once; a line published on one replica reaches a stream on
// another; MCP 2026-07-28 and A2A answered by any replica, a 2025 MCP session (and legacy SSE)
// kept on its replica by the balancer; quotas hold across replicas; a replica killed with SIGKILL
// under load loses no acknowledged write, the others keep serving and one takes over its sweeps.
// Issue 38: quota leases hold the bucket within one lease per replica under concurrent load, with a
// fraction of the writes; a hot KB read costs about one statement. With CX_PG_BOUNCER (pg-test.sh's
// second run) the same, the pools going through PgBouncer in transaction mode.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { solve } from '../../src/core/platform/identity/pow.js';
import pg from 'pg';
import { limit, quotaDef } from '../../src/core/kernel/limits.js';
import { type Cluster, freshDatabase, haproxyBin, type Replica, startCluster } from './cluster.js';

const pgUrl = process.env.CX_PG_REAL;
/** scripts/pg-test.sh's second run: the replicas' pools through PgBouncer in transaction mode. */
const bouncer = process.env.CX_PG_BOUNCER;
const haproxy = haproxyBin();

let c: Cluster;
let db: string;
let netN = 0;
/** A fresh /24 (the replicas trust X-Forwarded-For from the balancer and from these tests on loopback). */
const newNet = () => `10.${100 + ((netN >> 8) & 63)}.${netN++ & 255}.7`;

async function challenge(url: string, net: string, p: 'reg' | 'w' = 'reg'): Promise<string> {
  const res = await fetch(`${url}/v1/challenge?for=${p}`, { method: 'POST', headers: { accept: 'application/json', 'x-forwarded-for': net } });
  if (res.status !== 200) throw new Error(`challenge ${res.status} ${await res.text()}`);
  const ch = (await res.json()) as { challenge: string; bits: number };
  return solve(ch.challenge, ch.bits);
}

const register = (url: string, net: string, pow: string) =>
  fetch(`${url}/v1/register`, {
    method: 'POST',
    headers: { accept: 'application/json', 'x-forwarded-for': net, 'content-type': 'application/json' },
    body: JSON.stringify({ pow }),
  });

async function agent(url: string): Promise<{ id: string; token: string; net: string }> {
  const net = newNet();
  const r = await register(url, net, await challenge(url, net));
  if (r.status !== 201) throw new Error(`register ${r.status} ${await r.text()}`);
  return { ...((await r.json()) as { id: string; token: string }), net };
}

const alive = () => c.replicas.filter((r) => !r.dead);
const leaderLine = (r: Replica) => r.logs.some((l) => l.includes('leader: this process now runs sweeps'));

// Always: the repository's balancer config says what the README promises (and HAProxy accepts it).
it('deploy/haproxy.cfg: round robin, /readyz checks, X-Forwarded-For, sticky 2025 MCP sessions, streaming timeouts', () => {
  const cfg = readFileSync('deploy/haproxy.cfg', 'utf8');
  for (const line of [
    'balance roundrobin',
    'option httpchk GET /readyz',
    'option forwardfor',
    'stick store-response res.hdr(mcp-session-id)',
    'stick match req.hdr(mcp-session-id)',
    'stick match url_param(s) if { path /messages }',
    'retry-on conn-failure',
    'timeout server 300s',
  ])
    expect(cfg).toContain(line);
  if (haproxy) {
    const r = spawnSync(haproxy, ['-c', '-f', 'deploy/haproxy.cfg'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  }
});

if (pgUrl && haproxy)
  describe(`3 replicas on one PostgreSQL behind HAProxy${bouncer ? ', pools through PgBouncer' : ''}`, () => {
    beforeAll(async () => {
      db = await freshDatabase(pgUrl, `cx_scale_${process.pid}`);
      // CX_SHED=0: measured load shedding (per process, tested on its own) would answer 503 busy on
      // this 2-core machine running 3 replicas, PostgreSQL, HAProxy and the clients at once.
      c = await startCluster({ db, replicas: 3, env: { CX_TRUST_PROXY: '1', CX_POW_BITS: '4', CX_SEED: '0', CX_SHED: '0' }, bouncer });
    }, 180_000);
    afterAll(async () => c?.stop());

    it('a PoW proof spent on one replica is refused on the others: 20 parallel tries across replicas, exactly 1 success', async () => {
      const net = newNet();
      const pow = await challenge(c.replicas[0]!.url, net);
      const res = await Promise.all(Array.from({ length: 20 }, (_, i) => register(c.replicas[i % 3]!.url, newNet(), pow)));
      const bodies = await Promise.all(res.map((r) => r.text()));
      expect(res.filter((r) => r.status === 201)).toHaveLength(1);
      expect(bodies.filter((b) => b.includes('proof already spent'))).toHaveLength(19);
    });

    it('a drop with reads=3 read by 100 clients across replicas: exactly 3 bodies', async () => {
      const who = await agent(c.lb!);
      const secret = randomBytes(18).toString('base64url');
      const body = `the drop body ${secret}`;
      const put = await fetch(`${c.replicas[1]!.url}/d/${secret}?reads=3`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'text/plain', 'x-forwarded-for': who.net },
        body,
      });
      expect(put.status).toBe(201);
      const reads = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const r = await fetch(`${c.replicas[i % 3]!.url}/d/${secret}`, { headers: { 'x-forwarded-for': newNet() } });
          return { status: r.status, text: await r.text() };
        }),
      );
      expect(reads.filter((r) => r.text === body)).toHaveLength(3);
      expect(reads.filter((r) => r.status === 200)).toHaveLength(3);
      expect(reads.filter((r) => r.status === 404)).toHaveLength(97);
    });

    it('a line published on one replica reaches a subscriber streaming from another', async () => {
      const who = await agent(c.lb!);
      const topic = `r:Scale${randomBytes(12).toString('hex')}.live`;
      const ac = new AbortController();
      const res = await fetch(`${c.replicas[2]!.url}/v1/topics/${topic}/stream`, { signal: ac.signal, headers: { 'x-forwarded-for': newNet() } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let buf = '';
      const seen = (async () => {
        for (;;) {
          const r = await reader.read();
          if (r.done) return buf;
          buf += new TextDecoder().decode(r.value);
          if (buf.includes('from replica one')) return buf;
        }
      })();
      try {
        // The stream is open (its first heartbeat or the subscription is in place) before the line.
        await new Promise((r) => setTimeout(r, 300));
        const pub = await fetch(`${c.replicas[0]!.url}/v1/pub/${topic}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${who.token}`, 'content-type': 'text/plain', 'x-forwarded-for': who.net },
          body: 'from replica one',
        });
        expect(pub.status).toBe(201);
        const got = await Promise.race([seen, new Promise<string>((_, rej) => setTimeout(() => rej(new Error(`no line after 10 s: ${buf}`)), 10_000))]);
        expect(got).toMatch(new RegExp(`data: line ${topic.replace('.', '\\.')} seq=1 by=${who.id} .* \\| from replica one`));
      } finally {
        ac.abort();
      }
    });

    it('MCP 2026-07-28 and A2A calls are answered by any replica; an A2A task made on one is read on the others', async () => {
      const who = await agent(c.lb!);
      const META = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'scale', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      for (const r of c.replicas) {
        const res = await fetch(`${r.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'id_me',
            authorization: `Bearer ${who.token}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'id_me', arguments: {}, _meta: META } }),
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { result: { content: { text: string }[]; isError?: boolean } };
        expect(body.result.isError).toBeFalsy();
        expect(body.result.content[0]!.text).toContain(who.id);
      }
      const a2a = (url: string, method: string, params: unknown) =>
        fetch(`${url}/a2a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}`, 'x-forwarded-for': who.net },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as {
            result?: { id: string; status: { state: string; message?: { parts: { text?: string }[] } }; artifacts?: { parts: { text?: string }[] }[] };
          },
        }));
      const sent = await a2a(c.replicas[0]!.url, 'message/send', {
        message: {
          kind: 'message',
          messageId: `m-${randomBytes(6).toString('hex')}`,
          role: 'user',
          parts: [{ kind: 'data', data: { skill: 'id.me', input: {} } }],
        },
        configuration: { blocking: true },
      });
      expect(sent.status).toBe(200);
      expect(
        sent.body.result,
        `${JSON.stringify(sent.body)}\n${c.replicas[0]!.logs.filter((l) => l.includes('"level":50'))
          .slice(-2)
          .join('\n')}`,
      ).toBeDefined();
      expect(sent.body.result!.status.state).toBe('completed');
      // The reply line: the first artifact's text, else the status message's (as test/helpers/faces.ts reads it).
      const t = sent.body.result!;
      expect(t.artifacts?.[0]?.parts[0]?.text ?? t.status.message?.parts[0]?.text).toContain(who.id);
      for (const r of c.replicas.slice(1)) {
        const got = await a2a(r.url, 'tasks/get', { id: sent.body.result!.id });
        expect(got.status).toBe(200);
        expect(got.body.result).toMatchObject({ id: sent.body.result!.id, status: { state: 'completed' } });
      }
    });

    it('a 2025 MCP session (and a legacy SSE one) works through the balancer: it is routed to the replica that holds it', async () => {
      const client = new Client({ name: 'scale-2025', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(`${c.lb}/mcp`));
      await client.connect(transport);
      try {
        // Round robin would send these to every replica in turn; stickiness keeps them on one.
        for (let i = 0; i < 6; i++) {
          const r = (await client.callTool({ name: 'sys_health', arguments: {} })) as { isError?: boolean };
          expect(r.isError).toBeFalsy();
        }
        // Only one replica knows the session: the others answer the spec's 404.
        const statuses = await Promise.all(
          c.replicas.map(async (r) => {
            const res = await fetch(`${r.url}/mcp`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'mcp-session-id': transport.sessionId!,
                'mcp-protocol-version': '2025-06-18',
              },
              body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
            });
            await res.text();
            return res.status;
          }),
        );
        expect(statuses.sort()).toEqual([200, 404, 404]);
      } finally {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
      const legacy = new Client({ name: 'scale-sse', version: '1' });
      await legacy.connect(new SSEClientTransport(new URL(`${c.lb}/sse`)));
      try {
        for (let i = 0; i < 6; i++) expect(((await legacy.callTool({ name: 'sys_health', arguments: {} })) as { isError?: boolean }).isError).toBeFalsy();
      } finally {
        await legacy.close();
      }
    });

    it('quotas hold across replicas: registrations from one network, spread over the replicas, stop at the bucket', async () => {
      const net = newNet();
      const q = quotaDef('reg');
      const statuses: number[] = [];
      for (let i = 0; i < q.burst + 9; i++) {
        const url = c.replicas[i % 3]!.url;
        const r = await register(url, net, await challenge(url, net));
        statuses.push(r.status);
        await r.text();
      }
      // Each replica alone would grant the whole burst; together they grant it once.
      expect(statuses.filter((s) => s === 201)).toHaveLength(q.burst);
      expect(statuses.filter((s) => s === 429)).toHaveLength(9);
    });

    it('quota leases across 3 replicas under concurrent load: at most one lease per replica beyond the published bucket, a fraction of the bucket writes', async () => {
      const admin = new pg.Client({ connectionString: db });
      await admin.connect();
      try {
        // Rows written to the `e` buckets, counted by a trigger.
        await admin.query(`CREATE TABLE t_ewrites (n int8 NOT NULL); INSERT INTO t_ewrites VALUES (0);
          CREATE FUNCTION t_ecount() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE t_ewrites SET n = n + 1; RETURN NULL; END $$;
          CREATE TRIGGER t_ecount AFTER INSERT OR UPDATE ON quota_buckets FOR EACH ROW WHEN (NEW.id LIKE 'e|%') EXECUTE FUNCTION t_ecount();`);
        const q = quotaDef('e');
        const ratePerS = q.per / q.window_s;
        const lease = Math.max(1, Math.min(limit('quota.lease'), Math.floor(q.burst * limit('quota.lease_share'))));
        expect(lease).toBeGreaterThan(1);
        const net = newNet();
        const statuses: number[] = [];
        const total = 4 * q.burst;
        let next = 0;
        const t0 = Date.now();
        // 24 concurrent clients of one network, round robin over the replicas.
        await Promise.all(
          Array.from({ length: 24 }, async () => {
            for (let k = next++; k < total; k = next++) {
              const r = await fetch(`${c.replicas[k % 3]!.url}/e`, {
                method: 'POST',
                headers: { 'content-type': 'text/plain', 'x-forwarded-for': net },
                body: `ModuleNotFoundError: No module named 'zzlease${k % 7}'`,
              });
              statuses.push(r.status);
              await r.text();
            }
          }),
        );
        const secs = (Date.now() - t0) / 1000;
        const served = statuses.filter((s) => s !== 429).length;
        expect(new Set(statuses.filter((s) => s !== 429)).size).toBe(1);
        // Every token came out of the one bucket (burst + refill); leases move tokens in time, by at most one per replica.
        expect(served).toBeLessThanOrEqual(q.burst + Math.ceil(ratePerS * secs) + 3 * lease);
        expect(served).toBeGreaterThanOrEqual(q.burst - 3 * lease);
        const writes = Number((await admin.query<{ n: string }>('SELECT n FROM t_ewrites')).rows[0]!.n);
        console.log(
          `e bucket (burst ${q.burst}, lease ${lease}) from one network over 3 replicas: ${total} requests in ${secs.toFixed(1)} s, ${served} served, ${writes} bucket writes`,
        );
        // One write per lease while the burst lasts; then, as the bucket refills, at most one per token
        // refilled and one per replica per refusal that outlived its wait: not one per request (before: 480).
        expect(writes).toBeLessThanOrEqual(Math.ceil(q.burst / lease) + 3 * lease + 4 * Math.ceil(ratePerS * secs) + 6);
      } finally {
        await admin.query('DROP TRIGGER IF EXISTS t_ecount ON quota_buckets').catch(() => undefined);
        await admin.end();
      }
    });

    it('a hot KB read costs about one statement in steady state (pg_stat_statements): no quota write', async () => {
      const admin = new pg.Client({ connectionString: db });
      await admin.connect();
      try {
        const pre = (await admin.query<{ v: string }>("SELECT current_setting('shared_preload_libraries') AS v")).rows[0]!.v;
        // scripts/pg-test.sh preloads it (it ships with the server); without it this would measure nothing.
        expect(pre).toContain('pg_stat_statements');
        await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
        const a = await agent(c.replicas[0]!.url);
        const made = await fetch(`${c.replicas[0]!.url}/k`, {
          method: 'POST',
          headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': a.net },
          body: JSON.stringify({ error: "ModuleNotFoundError: No module named 'zzhot'", fix: 'pip install zzhot (the package is zzhot on PyPI)', eco: 'pypi' }),
        });
        expect(made.status).toBe(201);
        const { h } = (await made.json()) as { h: string };
        const net = newNet();
        const get = async () => {
          const r = await fetch(`${c.replicas[1]!.url}/h/${h}`, { headers: { 'x-forwarded-for': net } });
          expect(r.status).toBe(200);
          await r.text();
        };
        // Warm: the lease taken, the statements prepared on the pool's connections.
        for (let i = 0; i < 10; i++) await get();
        await admin.query('SELECT pg_stat_statements_reset()');
        // Within the network's `e` bucket (its burst, in leases of `lease`).
        const n = 80;
        const q = quotaDef('e');
        const lease = Math.max(1, Math.min(limit('quota.lease'), Math.floor(q.burst * limit('quota.lease_share'))));
        for (let i = 0; i < n; i++) await get();
        const rows = (
          await admin.query<{ query: string; calls: string }>(
            'SELECT query, calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())',
          )
        ).rows.filter((r) => !/pg_stat_statements/.test(r.query));
        const calls = (re: RegExp) => rows.filter((r) => re.test(r.query)).reduce((x, r) => x + Number(r.calls), 0);
        const hot = calls(/kb_|quota_buckets/);
        console.log(
          `GET /h hit, ${n} requests: ${(hot / n).toFixed(2)} KB+quota statements/request, ${(calls(/./) / n).toFixed(2)} all statements/request (3 replicas' background included)`,
        );
        expect(calls(/quota_buckets/)).toBeLessThanOrEqual(Math.ceil(n / lease) + 1);
        expect(hot / n).toBeLessThanOrEqual(1.25);
      } finally {
        await admin.end();
      }
    });

    it(`each replica keeps one session connection to the server (LISTEN and leadership)${bouncer ? '; its pool is a client of PgBouncer' : ''}`, async () => {
      const name = new URL(db).pathname.slice(1);
      const direct = new pg.Client({ connectionString: pgUrl });
      await direct.connect();
      try {
        const sessions = await direct.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'cx session'",
          [name],
        );
        expect(sessions.rows[0]!.n).toBe(alive().length);
      } finally {
        await direct.end();
      }
      if (!bouncer) return;
      const admin = new pg.Client({ connectionString: new URL('/pgbouncer', bouncer).toString() });
      await admin.connect();
      try {
        const clients = (await admin.query<{ database: string }>('SHOW CLIENTS')).rows.filter((r) => r.database === name);
        expect(clients.length).toBeGreaterThanOrEqual(alive().length);
      } finally {
        await admin.end();
      }
    });

    it('a replica killed with SIGKILL under load: no acknowledged write lost, the others keep serving, its sweeps taken over', async () => {
      // The leader of the sweeps says so in its log once its first try took the lock.
      const end = Date.now() + 20_000;
      while (alive().filter(leaderLine).length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
      const leaders = alive().filter(leaderLine);
      expect(leaders).toHaveLength(1);
      const victim = leaders[0]!;
      const acked: Array<{ id: string; token: string; at: number }> = [];
      const why = new Map<string, number>();
      const fail = (k: string) => {
        why.set(k, (why.get(k) ?? 0) + 1);
      };
      let stop = false;
      let killedAt = Infinity;
      const worker = async () => {
        while (!stop) {
          const net = newNet();
          try {
            const r = await register(c.lb!, net, await challenge(c.lb!, net));
            if (r.status === 201) acked.push({ ...((await r.json()) as { id: string; token: string }), at: Date.now() });
            else fail(`${r.status} ${(await r.text()).slice(0, 80)}`);
          } catch (e) {
            fail(String(e).slice(0, 80));
          }
        }
      };
      const load = Promise.all(Array.from({ length: 4 }, worker));
      await new Promise((r) => setTimeout(r, 2000));
      killedAt = Date.now();
      await c.kill(victim);
      await new Promise((r) => setTimeout(r, 6000));
      stop = true;
      await load;
      const after = acked.filter((a) => a.at > killedAt + 3000);
      expect(acked.length).toBeGreaterThan(20);
      // Serving went on after the balancer took the dead replica out (2 failed checks, 1 s apart).
      expect(after.length, JSON.stringify([...why])).toBeGreaterThan(5);
      // Every acknowledged registration is there, read through the balancer (the surviving replicas).
      const missing: string[] = [];
      for (const a of acked) {
        const me = await fetch(`${c.lb}/v1/me`, { headers: { authorization: `Bearer ${a.token}`, accept: 'application/json' } });
        const body = (await me.json()) as { id?: string };
        if (me.status !== 200 || body.id !== a.id) missing.push(a.id);
      }
      expect(missing).toEqual([]);
      // The balancer sends nothing more to the dead one: every request now succeeds.
      const checks = await Promise.all(Array.from({ length: 30 }, () => fetch(`${c.lb}/healthz`).then((r) => r.status)));
      expect(checks.every((s) => s === 200)).toBe(true);
      // Another replica took the sweeps over within leader.retry (and some slack for a loaded machine).
      const until = Date.now() + (limit('leader.retry') + 10) * 1000;
      while (alive().filter(leaderLine).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(alive().filter(leaderLine)).toHaveLength(1);
      expect(alive().filter(leaderLine)[0]).not.toBe(victim);
      // What failed failed at the balancer or the connection (the dead replica's requests in flight):
      // never an answer of a replica that was up (no 4xx, no 500).
      expect([...why.keys()].filter((k) => !/^(TypeError: fetch failed|Error: challenge 50[23] |50[23] )/.test(k))).toEqual([]);
    }, 90_000);
  });
