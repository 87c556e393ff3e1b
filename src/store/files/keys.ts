// Secrets as small files (0600) in the data directory (KeyStore port, src/core/secrets/ports.ts).
// Shared by every process that opens the same directory; a new secret is written to a temporary
// file and linked into place, so two processes starting at once agree on one value and nobody
// reads a half-written file.
import { chmodSync, linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyStore, SecretName } from '../../core/secrets/ports.js';

const FILES: Record<SecretName, string> = {
  'operator-tokens': 'operator-tokens.json',
  seal: 'seal.key',
  drops: 'drops.key',
  workspace: 'workspace.key',
  signing: 'signing.key',
};

export function fileKeyStore(dataDir: string): KeyStore {
  return {
    keep(name, make) {
      const path = join(dataDir, FILES[name]);
      const read = () => readFileSync(path, 'utf8').trim();
      try {
        return { value: read(), created: false, where: path };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      const value = make();
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(tmp, value + '\n', { mode: 0o600 });
      chmodSync(tmp, 0o600);
      try {
        linkSync(tmp, path);
        return { value, created: true, where: path };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        return { value: read(), created: false, where: path };
      } finally {
        unlinkSync(tmp);
      }
    },
    replace(name, value) {
      // rename() is atomic: a reader opens the old file or the new one.
      const path = join(dataDir, FILES[name]);
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(tmp, value + '\n', { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, path);
    },
    read(name) {
      try {
        return readFileSync(join(dataDir, FILES[name]), 'utf8').trim();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}
