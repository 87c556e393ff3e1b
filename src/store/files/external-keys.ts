// Secrets given from outside (KeyStore port, src/core/platform/secrets/ports.ts): each from the environment
// (CX_SECRET_SEAL, CX_SECRET_DROPS, CX_SECRET_WORKSPACE, CX_SECRET_SIGNING, CX_SECRET_OPERATOR_TOKENS)
// or from one secrets file named by CX_SECRETS_FILE (the way containers and systemd pass secrets),
// so replicas on several hosts share keys without sharing a directory. The environment wins over
// the file, name by name. Nothing is generated: a missing secret stops the start (one line), since
// a replica making its own would disagree with the others. Read-only in the server: rotation is
// `npm run key:rotate`, which writes the file (or prints the variable) for the operator to hand out.
//
// The file: a JSON object {"seal": "<64 hex>", …, "signing": {…ring…}, "operator-tokens": {…}}, or
// KEY=VALUE lines with the variable names above (an env file: `#` comments, blank lines, values
// optionally in quotes), as systemd's EnvironmentFile and `docker run --env-file` read.
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CxError } from '../../core/kernel/errors.js';
import { SECRET_NAMES, type KeyStore, type SecretName } from '../../core/platform/secrets/ports.js';

export const SECRETS_FILE_VAR = 'CX_SECRETS_FILE';

/** CX_SECRET_<NAME>: `operator-tokens` is CX_SECRET_OPERATOR_TOKENS. */
export const secretVar = (name: SecretName): string => `CX_SECRET_${name.toUpperCase().replace(/-/g, '_')}`;

export type SecretValues = Partial<Record<SecretName, string>>;

/** A secrets file's text as values (JSON values that are objects are kept as their JSON text). */
export function parseSecretsFile(text: string, where: string): SecretValues {
  const out: SecretValues = {};
  const byVar = new Map(SECRET_NAMES.map((n) => [secretVar(n), n]));
  if (text.trimStart().startsWith('{')) {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new Error(`config: ${where} is not valid JSON`);
    }
    for (const [k, v] of Object.entries(o)) {
      const name = (SECRET_NAMES as readonly string[]).includes(k) ? (k as SecretName) : byVar.get(k);
      if (!name) throw new Error(`config: ${where} names an unknown secret ${JSON.stringify(k).slice(0, 40)} (known: ${SECRET_NAMES.join(', ')})`);
      out[name] = typeof v === 'string' ? v : JSON.stringify(v);
    }
    return out;
  }
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const m = /^(?:export\s+)?([A-Z0-9_]+)\s*=\s*(.*)$/.exec(line);
    if (!m) throw new Error(`config: ${where} line ${i + 1} is not KEY=VALUE`);
    const name = byVar.get(m[1]!);
    if (!name) throw new Error(`config: ${where} line ${i + 1} names an unknown variable ${m[1]!.slice(0, 40)} (known: ${[...byVar.keys()].join(', ')})`);
    let v = m[2]!;
    if (v.length >= 2 && ((v.startsWith("'") && v.endsWith("'")) || (v.startsWith('"') && v.endsWith('"')))) v = v.slice(1, -1);
    out[name] = v;
  });
  return out;
}

/** The text of a secrets file (JSON, the format `npm run key:rotate` and `secrets:init` write). */
export function formatSecretsFile(values: SecretValues): string {
  const o: Record<string, unknown> = {};
  for (const n of SECRET_NAMES) {
    const v = values[n];
    if (v === undefined) continue;
    o[n] = n === 'signing' || n === 'operator-tokens' ? JSON.parse(v) : v;
  }
  return JSON.stringify(o, null, 2) + '\n';
}

/** Writes a secrets file 0600, atomically (a replica starting meanwhile reads the old or the new one). */
export function writeSecretsFile(path: string, values: SecretValues): void {
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, formatSecretsFile(values), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** What the environment gives: the file's values under the variables', and where each came from. */
export function externalSecrets(env: NodeJS.ProcessEnv): { values: SecretValues; from: Partial<Record<SecretName, string>>; file: string | null } | null {
  const file = env[SECRETS_FILE_VAR]?.trim() || null;
  const vars = SECRET_NAMES.filter((n) => env[secretVar(n)]);
  if (!file && !vars.length) return null;
  const values: SecretValues = {};
  const from: Partial<Record<SecretName, string>> = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`config: ${SECRETS_FILE_VAR}=${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    for (const [n, v] of Object.entries(parseSecretsFile(text, `${SECRETS_FILE_VAR}=${file}`)) as [SecretName, string][]) {
      values[n] = v;
      from[n] = `${SECRETS_FILE_VAR}=${file}`;
    }
  }
  for (const n of vars) {
    values[n] = env[secretVar(n)]!.trim();
    from[n] = secretVar(n);
  }
  for (const [n, v] of Object.entries(values) as [SecretName, string][]) check(n, v, from[n]!);
  return { values, from, file };
}

function check(name: SecretName, v: string, from: string): void {
  const bad = (rule: string) => new Error(`config: secret ${name} (${from}) must be ${rule}`);
  if (name === 'seal' || name === 'drops' || name === 'workspace') {
    if (!/^[0-9a-f]{64}$/.test(v)) throw bad('64 lowercase hex characters (32 random bytes)');
    return;
  }
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(v) as Record<string, unknown>;
  } catch {
    throw bad('JSON');
  }
  if (name === 'operator-tokens') {
    for (const c of ['admin', 'ops', 'poll', 'check'])
      if (typeof o[c] !== 'string' || (o[c] as string).length < 16) throw bad(`a JSON object with tokens (16+ characters) for admin, ops, poll and check`);
  } else if (!Number.isInteger(o.kid) || typeof o.seed !== 'string' || !/^[0-9a-f]{64}$/.test(o.seed) || !Array.isArray(o.prev)) {
    throw bad('a signing key ring {"kid": n, "seed": "<64 hex>", "prev": [...]} (make one with npm run secrets:init)');
  }
}

/**
 * The key store of secrets given from outside, or null when the environment gives none (then the
 * data directory's files are the store). Missing secrets and changes are refused, each in one line.
 */
export function externalKeyStore(env: NodeJS.ProcessEnv): KeyStore | null {
  const ext = externalSecrets(env);
  if (!ext) return null;
  const { values, from, file } = ext;
  const source = (name: SecretName) => from[name] ?? (file ? `${SECRETS_FILE_VAR}=${file}` : secretVar(name));
  return {
    keep(name) {
      const value = values[name];
      if (value === undefined)
        throw new Error(
          `config: secret ${name} is missing: set ${secretVar(name)}${file ? ` or add "${name}" to ${file}` : ` or ${SECRETS_FILE_VAR}`} (npm run secrets:init makes a complete file; every replica needs the same one)`,
        );
      return { value, created: false, where: source(name) };
    },
    read(name) {
      return values[name] ?? null;
    },
    replace(name) {
      throw readOnly(name, source(name));
    },
    update(name) {
      throw readOnly(name, source(name));
    },
  };
}

const readOnly = (name: SecretName, from: string) =>
  new CxError(
    'dup',
    `secret ${name} comes from ${from} and is read-only in the server: change it with npm run key:rotate, then give every replica the new secrets and restart it`,
  );
