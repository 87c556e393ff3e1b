// Error codes, quota buckets and limit keys are unions derived from their tables: a typo is a
// compile error (each `@ts-expect-error` below fails `tsc --noEmit` if its union widens to string).
import { describe, expect, it } from 'vitest';
import { CxError, ERROR_CODES, type ErrorCode } from '../../src/core/kernel/errors.js';
import { limit, LIMITS, lvl4, QUOTAS, quotaDef, type LimitKey, type QuotaBucket } from '../../src/core/kernel/limits.js';

describe('typed unions from the tables', () => {
  it('refuses a typo at compile time and an unknown name at run time', () => {
    // @ts-expect-error not a code of ERROR_CODES
    const code: ErrorCode = 'notfund';
    // @ts-expect-error not a bucket of QUOTAS
    const bucket: QuotaBucket = 'wrtie';
    // @ts-expect-error not a key of LIMITS
    const key: LimitKey = 'note.bdy';
    expect(ERROR_CODES.some((e) => e.code === code)).toBe(false);
    expect(() => quotaDef(bucket)).toThrow('unknown quota bucket wrtie');
    expect(() => limit(key)).toThrow('unknown limit note.bdy');
  });

  it('takes the names of the tables', () => {
    expect(new CxError('notfound').status).toBe(404);
    expect(quotaDef('write').by).toBe('id');
    expect(limit('note.body')).toBe(LIMITS.find((l) => l.key === 'note.body')!.value);
    expect(limit(`gov.weight.l${lvl4(7)}`)).toBe(limit('gov.weight.l3'));
    expect(limit(`gov.weight.l${lvl4(-1)}`)).toBe(limit('gov.weight.l0'));
    expect(new Set(QUOTAS.map((q) => q.bucket)).size).toBe(QUOTAS.length);
  });
});
