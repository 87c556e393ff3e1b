// Configuration comes from the environment only (all optional); the rest of the code
// receives this object and never reads process.env itself.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CatalogConfig, loadCatalogConfig } from './catalog/config.js';
import { POW } from './core/kernel/limits.js';
import type { KeyStore, SecretName } from './core/platform/secrets/ports.js';
import { newRing } from './core/platform/trust/keys.js';
import { fileKeyStore } from './store/files/keys.js';
import { externalKeyStore } from './store/files/external-keys.js';

import type { OperatorClass } from './core/kernel/caller.js';
export type { OperatorClass };

export interface Config {
  port: number;
  catalogPort: number;
  host: string;
  dataDir: string;
  baseUrl: string;
  allowedHosts: string[] | null;
  trustProxy: boolean | string;
  operatorTokens: Record<OperatorClass, string>;
  /** Where generated operator tokens were written, when any were generated. */
  operatorTokenFile: string | null;
  powBits: { reg: number; w: number };
  /** Measured load shedding (src/http/pressure.ts); CX_SHED=0 turns it off (the operator's level still applies). */
  shedMeasure: boolean;
  /** HMAC key sealing PoW challenges; kept in the data directory. */
  sealKey: Buffer;
  /** Server key of dead drops (HKDF input with each drop's secret); kept in the data directory. */
  dropKey: Buffer;
  /** Master key of the agent workspace (notes, mail at rest; reader-network tags); kept in the data directory. */
  workspaceKey: Buffer;
  /** Multiplies every quota bucket (CX_QUOTA_MULT; load tests, large private deployments). */
  quotaMult: number;
  logLevel: string;
  /** CX_LOG: `pretty` (one short line per request, for a person at a terminal) or `json` (pino's
   *  structured lines, for a log collector); unset (`auto`), pretty when the log goes to a terminal
   *  (src/http/log-format.ts logFormatFor), else json. */
  logFormat: 'pretty' | 'json' | 'auto';
  /** Text served at /.well-known/mcp-registry-auth (MCP registry HTTP domain verification). */
  mcpRegistryAuth: string | null;
  /** Load the sample KB into an empty database at start (CX_SEED=0 turns it off). */
  seed: boolean;
  sync: 'normal' | 'full';
  /** Part B, the hosting catalog (src/catalog/config.ts): products file, payment providers. */
  catalog: CatalogConfig;
  /** Where generated secrets are kept (KeyStore port); the signing key ring lives there too. */
  keys: KeyStore;
  /** Source mirror announced by /cx?go-get=1 (CX_SOURCE_MIRROR: a git URL), or null (then /cx is 404). */
  sourceMirror: string | null;
  /** Public key (32 bytes) of the operator's offline root signing key (CX_ROOT_PUB, hex), or null. */
  rootPub: Buffer | null;
  /** Test mode: A2A push notifications may go to loopback addresses (never private or link-local). */
  a2aPushAllowLoopback: boolean;
  /** The git mirror of the KB under <data>/git (CX_GIT_MIRROR=0 turns it off: its routes answer 503). */
  gitMirror: boolean;
  /**
   * CX_DATABASE_URL (postgres://…): the store is that PostgreSQL database, shared by every replica
   * started with it; unset, SQLite under the data directory (one process).
   */
  databaseUrl: string | null;
  /** CX_DATABASE_SESSION_URL: LISTEN and leadership connections go here (the server) when CX_DATABASE_URL is a transaction pooler; default CX_DATABASE_URL. */
  databaseSessionUrl: string | null;
  /**
   * CX_DATABASE_READ_URL: a streaming standby of the same database; anonymous KB, search, page and
   * feed reads go there while its lag is within db.standby_lag, else to the primary (docs/scaling.md).
   */
  databaseReadUrl: string | null;
  /** CX_METRICS_ADDR (`host:port`, `:port`): /metrics without a token on a listener of its own; null: only GET /metrics with the poll token. */
  metricsAddr: { host: string; port: number } | null;
  /** Connections this process keeps to PostgreSQL (CX_DATABASE_POOL; replicas x pool + 1 each for LISTEN and leadership must fit max_connections or a pooler). */
  databasePool: number;
  /**
   * CX_DATABASE_PREPARE (1/0): named prepared statements on the pool's connections. Default 1 with
   * no CX_DATABASE_SESSION_URL (the pool talks to the server); 0 when one is set (the pool is then a
   * transaction pooler, and PgBouncer before 1.21 cannot carry named statements: set 1 for PgBouncer
   * >= 1.21 with max_prepared_statements > 0). docs/scaling.md.
   */
  databasePrepare: boolean;
}

function int(v: string | undefined, dflt: number, name: string): number {
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`config: ${name} must be a non-negative integer`);
  return n;
}

const newKey = () => randomBytes(32).toString('hex');
const CLASSES: OperatorClass[] = ['admin', 'ops', 'poll', 'check'];
const newTokens = () => JSON.stringify(Object.fromEntries(CLASSES.map((c) => [c, `cxo_${c}_${randomBytes(24).toString('base64url')}`])));

/** A new value of a generated secret (first start, npm run secrets:init). */
export function newSecret(name: SecretName): string {
  return name === 'operator-tokens' ? newTokens() : name === 'signing' ? newRing() : newKey();
}

/** The workspace key of a key store (made on first use): config and tools read the same one. */
export function workspaceKeyOf(dataDir: string, keys: KeyStore = fileKeyStore(dataDir)): Buffer {
  return Buffer.from(keys.keep('workspace', newKey).value, 'hex');
}

/**
 * `keysFor`: where generated secrets are kept (src/core/platform/secrets/ports.ts); by default files (0600) in
 * the data directory, which every process on that directory shares. When the environment gives
 * secrets (CX_SECRETS_FILE or any CX_SECRET_<NAME>: src/store/files/external-keys.ts), they are the
 * store instead and nothing is generated: replicas on several hosts share keys without sharing files.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, keysFor: (dataDir: string) => KeyStore = fileKeyStore): Config {
  const port = int(env.PORT, 8080, 'PORT');
  const catalogPort = int(env.CATALOG_PORT, 8081, 'CATALOG_PORT');
  const dataDir = resolve(env.CX_DATA || './data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const keys = externalKeyStore(env) ?? keysFor(dataDir);

  const classes = CLASSES;
  const fromEnv: Partial<Record<OperatorClass, string>> = {};
  for (const c of classes) {
    const v = env[`CX_${c.toUpperCase()}_TOKEN`];
    if (v) fromEnv[c] = v;
  }
  let operatorTokenFile: string | null = null;
  let tokens = fromEnv as Record<OperatorClass, string>;
  if (classes.some((c) => !fromEnv[c])) {
    const kept = keys.keep('operator-tokens', newTokens);
    const stored = JSON.parse(kept.value) as Record<OperatorClass, string>;
    tokens = Object.fromEntries(classes.map((c) => [c, fromEnv[c] ?? stored[c]])) as Record<OperatorClass, string>;
    if (kept.created) operatorTokenFile = kept.where;
  }
  const seal = keys.keep('seal', newKey);
  const dropKey = keys.keep('drops', newKey);
  const quotaMult = int(env.CX_QUOTA_MULT, 1, 'CX_QUOTA_MULT');
  if (quotaMult < 1) throw new Error('config: CX_QUOTA_MULT must be at least 1');

  const bits = env.CX_POW_BITS ? int(env.CX_POW_BITS, POW.reg_bits, 'CX_POW_BITS') : null;
  if (bits !== null && (bits < 1 || bits > 32)) throw new Error('config: CX_POW_BITS must be 1..32');
  const trust = env.CX_TRUST_PROXY;
  const root = env.CX_ROOT_PUB?.trim().toLowerCase();
  const mirror = env.CX_SOURCE_MIRROR?.trim();
  if (mirror && !/^(https|git|ssh):\/\/[^\s"<>]+$/.test(mirror)) throw new Error('config: CX_SOURCE_MIRROR must be an https://, git:// or ssh:// URL');
  if (root && !/^[0-9a-f]{64}$/.test(root)) throw new Error('config: CX_ROOT_PUB must be 64 hex characters (a raw Ed25519 public key)');
  const databaseUrl = databaseUrlOf(env.CX_DATABASE_URL, 'CX_DATABASE_URL');
  const databaseSessionUrl = databaseUrlOf(env.CX_DATABASE_SESSION_URL, 'CX_DATABASE_SESSION_URL');
  const databaseReadUrl = databaseUrlOf(env.CX_DATABASE_READ_URL, 'CX_DATABASE_READ_URL');
  if (databaseReadUrl && !databaseUrl) throw new Error('config: CX_DATABASE_READ_URL needs CX_DATABASE_URL (the primary)');
  const databasePool = int(env.CX_DATABASE_POOL, 10, 'CX_DATABASE_POOL');
  if (databasePool < 1) throw new Error('config: CX_DATABASE_POOL must be at least 1');
  const prep = env.CX_DATABASE_PREPARE?.trim();
  if (prep && prep !== '0' && prep !== '1') throw new Error('config: CX_DATABASE_PREPARE must be 0 or 1');
  const databasePrepare = prep ? prep === '1' : databaseSessionUrl === null;
  return {
    port,
    catalogPort,
    host: env.HOST || '0.0.0.0',
    dataDir,
    baseUrl: (env.CX_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    allowedHosts: env.CX_ALLOWED_HOSTS
      ? env.CX_ALLOWED_HOSTS.split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean)
      : null,
    trustProxy: !trust || trust === '0' || trust === 'false' ? false : trust === '1' || trust === 'true' ? true : trust,
    operatorTokens: tokens,
    operatorTokenFile,
    // One override for both purposes keeps tests and small deployments simple; anonymous
    // writes stay 4 bits cheaper than registration.
    shedMeasure: env.CX_SHED !== '0',
    powBits: bits === null ? { reg: POW.reg_bits, w: POW.w_bits } : { reg: bits, w: Math.max(1, bits - 4) },
    sealKey: Buffer.from(seal.value, 'hex'),
    dropKey: Buffer.from(dropKey.value, 'hex'),
    workspaceKey: workspaceKeyOf(dataDir, keys),
    quotaMult,
    logLevel: env.CX_LOG_LEVEL || 'info',
    logFormat: logFormatOf(env.CX_LOG),
    mcpRegistryAuth: env.CX_MCP_REGISTRY_AUTH || null,
    seed: env.CX_SEED !== '0',
    sync: env.CX_SYNC === 'full' ? 'full' : 'normal',
    catalog: loadCatalogConfig(env),
    a2aPushAllowLoopback: env.CX_A2A_PUSH_ALLOW_LOOPBACK === '1',
    keys,
    rootPub: root ? Buffer.from(root, 'hex') : null,
    sourceMirror: mirror || null,
    gitMirror: env.CX_GIT_MIRROR !== '0',
    databaseUrl,
    databaseSessionUrl,
    databaseReadUrl,
    databasePool,
    databasePrepare,
    metricsAddr: addrOf(env.CX_METRICS_ADDR, 'CX_METRICS_ADDR'),
  };
}

/** `host:port`, `:port` (every interface) or `[v6]:port`; empty is null. */
function addrOf(v: string | undefined, name: string): { host: string; port: number } | null {
  const s = v?.trim();
  if (!s) return null;
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]]*)):(\d{1,5})$/.exec(s);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new Error(`config: ${name} must be host:port, :port or [v6]:port`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

function logFormatOf(v: string | undefined): 'pretty' | 'json' | 'auto' {
  const s = v?.trim().toLowerCase();
  if (!s) return 'auto';
  if (s === 'pretty' || s === 'json') return s;
  throw new Error('config: CX_LOG must be pretty or json');
}

/** CX_DATABASE_URL: empty is SQLite; otherwise a postgres:// (or postgresql://) URL with a host. */
function databaseUrlOf(v: string | undefined, name: string): string | null {
  const s = v?.trim();
  if (!s) return null;
  let u: URL | null = null;
  try {
    u = new URL(s);
  } catch {
    /* said below */
  }
  if (!u || !/^postgres(ql)?:$/.test(u.protocol) || !u.hostname)
    throw new Error(`config: ${name} must be a postgres://user[:password]@host[:port]/database URL`);
  return s;
}
