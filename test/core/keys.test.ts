// Generated secrets behind the KeyStore port: the file implementation keeps each one 0600, makes it
// once, and when another process writes it first, takes that one; the config reads every secret
// through the port, so another implementation replaces the files entirely.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { KeyStore, SecretName } from '../../src/core/platform/secrets/ports.js';
import { fileKeyStore } from '../../src/store/files/keys.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'cx-keys-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('key store', () => {
  it('files: made once with mode 0600, then read back', () => {
    const dir = tmp();
    const ks = fileKeyStore(dir);
    const a = ks.keep('seal', () => 'aa11');
    expect(a).toEqual({ value: 'aa11', created: true, where: join(dir, 'seal.key') });
    expect(statSync(a.where).mode & 0o777).toBe(0o600);
    expect(ks.keep('seal', () => 'bb22')).toEqual({ value: 'aa11', created: false, where: a.where });
    expect(readdirSync(dir).sort()).toEqual(['seal.key']);
  });

  it('files: when another process keeps the secret first, its value wins', () => {
    const dir = tmp();
    const ks = fileKeyStore(dir);
    const other = join(dir, 'drops.key');
    const got = ks.keep('drops', () => {
      writeFileSync(other, 'theirs\n', { mode: 0o600 });
      return 'mine';
    });
    expect(got).toEqual({ value: 'theirs', created: false, where: other });
    expect(readdirSync(dir)).toEqual(['drops.key']);
  });

  it('the config keeps operator tokens and keys as before, in the data directory', () => {
    const dir = tmp();
    const c = loadConfig({ CX_DATA: dir });
    expect(c.operatorTokenFile).toBe(join(dir, 'operator-tokens.json'));
    for (const f of ['operator-tokens.json', 'seal.key', 'drops.key', 'workspace.key']) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    const again = loadConfig({ CX_DATA: dir });
    expect(again.operatorTokenFile).toBeNull();
    expect(again.operatorTokens).toEqual(c.operatorTokens);
    expect(again.sealKey.equals(c.sealKey) && again.dropKey.equals(c.dropKey) && again.workspaceKey.equals(c.workspaceKey)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'operator-tokens.json'), 'utf8')).admin).toBe(c.operatorTokens.admin);
  });

  it('the config reads every secret through the port: another implementation writes no files', () => {
    const dir = tmp();
    const kept = new Map<SecretName, string>();
    const shared: KeyStore = {
      keep(name, make) {
        const had = kept.get(name);
        if (had !== undefined) return { value: had, created: false, where: `table:${name}` };
        kept.set(name, make());
        return { value: kept.get(name)!, created: true, where: `table:${name}` };
      },
      replace(name, value) {
        kept.set(name, value);
      },
      read: (name) => kept.get(name) ?? null,
      update(name, change) {
        const v = change(kept.get(name) ?? null);
        kept.set(name, v);
        return v;
      },
    };
    const c = loadConfig({ CX_DATA: dir }, () => shared);
    expect([...kept.keys()].sort()).toEqual(['drops', 'operator-tokens', 'seal', 'workspace']);
    expect(c.operatorTokenFile).toBe('table:operator-tokens');
    expect(c.sealKey.toString('hex')).toBe(kept.get('seal'));
    expect(existsSync(join(dir, 'seal.key'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
