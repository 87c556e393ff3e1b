// N replicas of the real server on one PostgreSQL database behind HAProxy, on loopback ports (the
// replica test and bench/scale.ts). Each replica is a child process started as `npm start` would
// (or under tsx), with the same data directory (the generated keys every replica must share) and
// CX_DATABASE_URL; HAProxy runs deploy/haproxy.cfg with its server lines made for N replicas.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface Replica {
  n: number;
  url: string;
  child: ChildProcess;
  /** Everything it printed (pino JSON lines on stdout, anything on stderr). */
  logs: string[];
  dead: boolean;
}

export interface Cluster {
  db: string | null;
  dir: string;
  replicas: Replica[];
  /** The balancer's URL (null without one). */
  lb: string | null;
  kill(r: Replica, sig?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/** The haproxy binary, or null. */
export function haproxyBin(): string | null {
  for (const p of ['haproxy', '/usr/sbin/haproxy']) if (!spawnSync(p, ['-v']).error) return p;
  return null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function waitOk(url: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > end) throw new Error(`${url} did not answer 200`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A new empty database on the server of `adminUrl`; returns its URL. */
export async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export interface ClusterOpts {
  /** The PostgreSQL database URL the replicas share; null: SQLite under the data directory (one replica). */
  db: string | null;
  replicas: number;
  /** Node arguments that run the server (default: tsx on src/server.ts). */
  args?: string[];
  /** Extra environment of every replica. */
  env?: Record<string, string>;
  /** HAProxy in front (default true). */
  lb?: boolean;
  /**
   * A PgBouncer (transaction mode) in front of `db`'s server, as postgres://host:port/…: the
   * replicas' pools go through it (CX_DATABASE_URL, same database name), their session connections
   * straight to the server (CX_DATABASE_SESSION_URL).
   */
  bouncer?: string;
}

/** `db` (a database URL) reached through the pooler at `bouncer`'s host and port. */
function through(bouncer: string, db: string): string {
  const u = new URL(db);
  const b = new URL(bouncer);
  u.host = b.host;
  return u.toString();
}

export async function startCluster(o: ClusterOpts): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'cx-cluster-'));
  const args = o.args ?? ['--import', 'tsx', 'src/server.ts'];
  const replicas: Replica[] = [];
  const kids: ChildProcess[] = [];
  const spawnReplica = async (n: number): Promise<Replica> => {
    const [port, cport] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        PORT: String(port),
        CATALOG_PORT: String(cport),
        HOST: '127.0.0.1',
        CX_DATA: dir,
        ...(o.db ? { CX_DATABASE_URL: o.bouncer ? through(o.bouncer, o.db) : o.db, CX_DATABASE_POOL: '8' } : {}),
        ...(o.db && o.bouncer ? { CX_DATABASE_SESSION_URL: o.db } : {}),
        CX_LOG_LEVEL: 'info',
        CX_GIT_MIRROR: '0',
        ...o.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    kids.push(child);
    const r: Replica = { n, url: `http://127.0.0.1:${port}`, child, logs: [], dead: false };
    let part = '';
    const take = (b: Buffer) => {
      const lines = (part + b.toString()).split('\n');
      part = lines.pop()!;
      r.logs.push(...lines);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    const exited = new Promise<never>((_, reject) =>
      child.on('exit', (code, sig) => {
        r.dead = true;
        reject(new Error(`replica ${n} exited (${code ?? sig})`));
      }),
    );
    exited.catch(() => undefined);
    await Promise.race([waitOk(`${r.url}/healthz`), exited]).catch((e: Error) => {
      throw new Error(`${e.message}\n${r.logs.slice(-20).join('\n')}`);
    });
    return r;
  };
  let haproxy: ChildProcess | null = null;
  let cfgDir: string | null = null;
  const stop = async () => {
    for (const k of [haproxy, ...kids]) if (k && k.exitCode === null && k.signalCode === null) k.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    rmSync(dir, { recursive: true, force: true });
    if (cfgDir) rmSync(cfgDir, { recursive: true, force: true });
  };
  try {
    // The first migrates and seeds; the others start together on a ready database.
    replicas.push(await spawnReplica(1));
    replicas.push(...(await Promise.all(Array.from({ length: o.replicas - 1 }, (_, i) => spawnReplica(i + 2)))));
    let lb: string | null = null;
    if (o.lb !== false) {
      const b = await startBalancer(replicas);
      haproxy = b.child;
      kids.push(haproxy);
      cfgDir = b.cfgDir;
      lb = b.url;
    }
    return {
      db: o.db,
      dir,
      replicas,
      lb,
      async kill(r, sig = 'SIGKILL') {
        if (r.dead) return;
        const gone = new Promise((res) => r.child.once('exit', res));
        r.child.kill(sig);
        await gone;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * HAProxy running the repository's deploy/haproxy.cfg with one server line per replica, on a free
 * loopback port; resolves once every server passed its checks. The caller kills `child` and removes `cfgDir`.
 */
export async function startBalancer(replicas: { n: number; url: string }[]): Promise<{ url: string; child: ChildProcess; cfgDir: string }> {
  const bin = haproxyBin();
  if (!bin) throw new Error('haproxy not found');
  // The repository's config, with one server line per replica.
  const cfgDir = mkdtempSync(join(tmpdir(), 'cx-lb-'));
  const base = readFileSync('deploy/haproxy.cfg', 'utf8')
    .split('\n')
    .filter((l) => !/^\s*server r\d+ /.test(l));
  const cfg = join(cfgDir, 'haproxy.cfg');
  writeFileSync(cfg, [...base, ...replicas.map((r) => `  server r${r.n} "\${CX_R${r.n}}"`), ''].join('\n'));
  const lbPort = await freePort();
  const env: Record<string, string> = { CX_LB_BIND: `127.0.0.1:${lbPort}` };
  for (const r of replicas) env[`CX_R${r.n}`] = new URL(r.url).host;
  const child = spawn(bin, ['-f', cfg, '-db'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const said: string[] = [];
  child.stderr!.on('data', (b: Buffer) => said.push(b.toString()));
  const url = `http://127.0.0.1:${lbPort}`;
  try {
    await waitOk(`${url}/healthz`, 20_000).catch((e: Error) => {
      throw new Error(`haproxy: ${e.message}\n${said.join('')}`);
    });
    // Every server passed its checks (rise 2 x 1 s) once each one has answered through the balancer.
    await new Promise((r) => setTimeout(r, 2500));
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(cfgDir, { recursive: true, force: true });
    throw e;
  }
  return { url, child, cfgDir };
}

export interface ThrowawayPg {
  url: string;
  /** CPU (utime + stime, ms) of the server's processes now: the postmaster and every backend. */
  cpuMs(): number;
  stop(): void;
}

/**
 * A PostgreSQL cluster of its own (initdb + pg_ctl under a temporary directory, as scripts/pg-test.sh
 * makes), on a free loopback port, trust authentication, durability off (a measurement, thrown
 * away). `preload`: shared_preload_libraries (pg_stat_statements for the benchmark).
 */
export async function throwawayPg(opts: { preload?: string } = {}): Promise<ThrowawayPg> {
  const { execFileSync } = await import('node:child_process');
  const { chmodSync, chownSync, existsSync, readdirSync } = await import('node:fs');
  const majors = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const bin = process.env.PG_BIN ?? (majors[0] ? `/usr/lib/postgresql/${majors[0]}/bin` : '');
  if (!bin || !existsSync(`${bin}/initdb`)) throw new Error('initdb not found (Debian: apt-get install -y postgresql; or set PG_BIN)');
  const dir = mkdtempSync(join(tmpdir(), 'cx-pgb-'));
  chmodSync(dir, 0o755);
  // initdb refuses to run as root: the cluster belongs to the postgres user then.
  const root = process.getuid?.() === 0;
  const as = (cmd: string, args: string[]) =>
    root ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' }) : execFileSync(cmd, args, { stdio: 'pipe' });
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  as(`${bin}/initdb`, ['-D', `${dir}/data`, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const o = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300${opts.preload ? ` -c shared_preload_libraries=${opts.preload}` : ''}`;
  as(`${bin}/pg_ctl`, ['-D', `${dir}/data`, '-l', `${dir}/server.log`, '-w', '-o', o, 'start']);
  const master = Number(readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
  const tick = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    cpuMs() {
      let ms = 0;
      for (const p of readdirSync('/proc')) {
        if (!/^\d+$/.test(p)) continue;
        try {
          const st = readFileSync(`/proc/${p}/stat`, 'utf8');
          const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
          // f[1] is the parent pid; utime, stime are f[11], f[12].
          if (Number(p) === master || Number(f[1]) === master) ms += (Number(f[11]) + Number(f[12])) * tick;
        } catch {
          /* gone meanwhile */
        }
      }
      return ms;
    },
    stop() {
      try {
        as(`${bin}/pg_ctl`, ['-D', `${dir}/data`, '-m', 'immediate', 'stop']);
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
