// The X-Cx-Sig-Server memo of ServerKeys (src/core/platform/trust/keys.ts): a repeated body is signed once, the
// kept value is what signing again gives, the oldest is dropped past trust.sig_memo, and a rotation
// (in this process or by another one, seen at the ring refresh) empties it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { rotateRing, ServerKeys } from '../../src/core/platform/trust/keys.js';
import { fileKeyStore } from '../../src/store/files/keys.js';
import { bothVerify } from './verify-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-memo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('X-Cx-Sig-Server memo', () => {
  it('signs a repeated body once, evicts the oldest, and forgets everything when the key changes', async () => {
    let t = 0;
    const keys = new ServerKeys(fileKeyStore(dir), () => t, 'commons.test');
    const sign = vi.spyOn(keys, 'sign');
    const a = keys.header('body a');
    expect(keys.header('body a')).toBe(a);
    expect(keys.header(Buffer.from('body a'))).toBe(a);
    expect(sign).toHaveBeenCalledTimes(1);
    keys.memoSize = 0;
    expect(keys.header('body a')).toBe(a); // deterministic: the memo holds what signing gives
    expect(sign).toHaveBeenCalledTimes(2);
    const sig = Buffer.from(/sig=(\S+)$/.exec(a)![1]!, 'base64url');
    expect(await bothVerify(keys.pub, 'resp1', 'body a', sig)).toEqual([true, true]);

    keys.memoSize = 2;
    keys.header('body b');
    keys.header('body c'); // drops a (the oldest)
    sign.mockClear();
    keys.header('body c');
    expect(sign).toHaveBeenCalledTimes(0);
    keys.header('body a');
    expect(sign).toHaveBeenCalledTimes(1);

    // Rotation here: the next header is by the new kid.
    keys.rotate();
    expect(keys.header('body a')).toMatch(/^kid=2; t=resp1; /);
    // Rotation by another process: seen after the ring refresh, and the memo goes with the old key.
    rotateRing(fileKeyStore(dir));
    expect(keys.header('body a')).toMatch(/^kid=2; /);
    t += 10_000;
    expect(keys.header('body a')).toMatch(/^kid=3; /);
  });
});
