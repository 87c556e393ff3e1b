// npm run key:rotate — makes a new server statement key; the old one stays in `prev`, so what it
// signed still verifies. Where the ring lives decides the rest:
//  - the data directory (default): the ring file is rotated; a running server on that directory
//    picks it up within trust.ring_refresh seconds.
//  - CX_SECRETS_FILE (without CX_SECRET_SIGNING): that file is rewritten (JSON, 0600, atomically);
//    give every replica the new file and restart it.
//  - CX_SECRET_SIGNING: the new value is printed (CX_SECRET_SIGNING=…) to set on every replica.
// Each way records the new key's fingerprint in the database (src/core/platform/secrets/prints.ts): replicas
// restarted with the new ring start, one restarted with the old ring refuses.
// `--record`: rotates nothing; records this process's key fingerprints as the expected ones (after
// replacing a key on purpose: what the old one sealed becomes unreadable).
import { loadConfig } from '../src/config.js';
import { ringPrint } from '../src/core/platform/secrets/fingerprint.js';
import type { KeyStore, SecretName } from '../src/core/platform/secrets/ports.js';
import { PRINTED, printsOf } from '../src/core/platform/secrets/prints.js';
import { rotateRing } from '../src/core/platform/trust/keys.js';
import { rawPublic } from '../src/core/platform/trust/sign.js';
import { openStore } from '../src/server.js';
import { externalSecrets, secretVar, writeSecretsFile } from '../src/store/files/external-keys.js';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--record');
if (unknown.length) {
  console.error(`key:rotate: unknown argument ${unknown[0]} (usage: npm run key:rotate [-- --record])`);
  process.exit(2);
}

async function record(prints: Partial<Record<(typeof PRINTED)[number], string>>, config: ReturnType<typeof loadConfig>): Promise<void> {
  const store = await openStore(config);
  try {
    for (const [name, p] of Object.entries(prints)) await store.keyPrints.set(name, p, Date.now());
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (args.includes('--record')) {
    const prints = printsOf(config);
    await record(prints, config);
    console.log(`ok recorded ${PRINTED.map((n) => `${n}=${prints[n]}`).join(' ')}`);
    return;
  }
  const ext = externalSecrets(process.env);
  let r: ReturnType<typeof rotateRing>;
  let next: string;
  if (!ext) {
    r = rotateRing(config.keys);
    next = 'a running server on this data directory picks it up within trust.ring_refresh seconds';
  } else {
    // The ring as given, rotated in memory the same way the file store rotates it.
    const mem = new Map<SecretName, string>(Object.entries(ext.values) as [SecretName, string][]);
    const inMemory: KeyStore = {
      keep: (n, make) => ({ value: mem.get(n) ?? (mem.set(n, make()), mem.get(n)!), created: false, where: 'memory' }),
      read: (n) => mem.get(n) ?? null,
      replace: (n, v) => void mem.set(n, v),
      update: (n, change) => {
        const v = change(mem.get(n) ?? null);
        mem.set(n, v);
        return v;
      },
    };
    r = rotateRing(inMemory);
    if (ext.from.signing === secretVar('signing') || !ext.file) {
      // The secret itself goes to stdout: the operator asked for it, and sets it on every replica.
      console.log(`${secretVar('signing')}=${mem.get('signing')}`);
      next = `set ${secretVar('signing')} to the value above on every replica and restart them`;
    } else {
      // Only what the file held is written back (values from variables stay out of it).
      const fromFile = Object.fromEntries([...mem].filter(([n]) => n === 'signing' || ext.from[n] === `CX_SECRETS_FILE=${ext.file}`));
      writeSecretsFile(ext.file, fromFile);
      next = `give every replica the new ${ext.file} and restart them (until then they sign with kid ${r.kid - 1}, which stays valid in prev)`;
    }
  }
  console.log(`ok key kid=${r.kid} pub=${rawPublic(Buffer.from(r.seed, 'hex')).toString('hex')} prev=${r.prev.map((p) => p.kid).join(',')}`);
  try {
    await record({ signing: ringPrint(r) }, config);
  } catch (err) {
    console.error(
      `key:rotate: the new key is kept but its fingerprint was not recorded (${err instanceof Error ? err.message : String(err)}): run npm run key:rotate -- --record with the new secrets`,
    );
    process.exit(1);
  }
  console.log(`next: ${next}; then send a root certificate of kid ${r.kid} to POST /admin/online-key (see /signing)`);
}

main().catch((err) => {
  console.error(`key:rotate: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
