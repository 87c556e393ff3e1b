// npm run secrets:init -- <file> — writes a complete secrets file (JSON, 0600) for replicas that
// share no directory: give the same file to each as CX_SECRETS_FILE. Secrets already in the data
// directory (CX_DATA) are taken from there, so a deployment that ran on one host keeps its keys
// (its drops, workspace data and signatures stay readable); the others are made new. Refuses to
// overwrite an existing file.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { newSecret } from '../src/config.js';
import { SECRET_NAMES, type SecretName } from '../src/core/platform/secrets/ports.js';
import { writeSecretsFile } from '../src/store/files/external-keys.js';
import { fileKeyStore } from '../src/store/files/keys.js';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: npm run secrets:init -- <file>   (CX_DATA: a data directory whose key files to take)');
  process.exit(2);
}
if (existsSync(file)) {
  console.error(`secrets:init: ${file} exists; it is not overwritten (rotate the signing key with npm run key:rotate)`);
  process.exit(1);
}
const dir = process.env.CX_DATA ? resolve(process.env.CX_DATA) : null;
const have = dir && existsSync(dir) ? fileKeyStore(dir) : null;
const values: Partial<Record<SecretName, string>> = {};
const taken: string[] = [];
for (const n of SECRET_NAMES) {
  const v = have?.read(n) ?? null;
  if (v !== null) taken.push(n);
  values[n] = v ?? newSecret(n);
}
writeSecretsFile(file, values);
console.log(
  `ok wrote ${file} (0600): ${taken.length ? `${taken.join(', ')} from ${dir}, ` : ''}${SECRET_NAMES.filter((n) => !taken.includes(n)).join(', ') || 'nothing'} new`,
);
console.log(`next: start every replica with CX_SECRETS_FILE=${file} (the same content on each host)`);
