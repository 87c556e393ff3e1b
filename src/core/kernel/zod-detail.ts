// `err bad <path>: <rule>` from the first zod issue (the validate guard and the faces share it), in
// the project's own words: the validator's ("Invalid option", "Too big: expected string to have
// <=300 characters", "Invalid input: expected string, received number") are rewritten per issue code;
// a message a schema wrote itself (`.regex(re, 'want 64 lowercase hex')`) is kept as written.
import type { z } from 'zod';

/** Zod's own wording starts like this; anything else is a schema's custom message. */
const ZOD_WORDS = /^(Invalid|Too (big|small)|Expected|Unrecognized|Number must|String must|Array must)\b/;

type Issue = z.core.$ZodIssue & {
  input?: unknown;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  inclusive?: boolean;
  exact?: boolean;
  values?: unknown[];
  expected?: string;
  format?: string;
};

export function zodDetail(err: z.ZodError): string {
  const i = err.issues[0] as Issue | undefined;
  if (!i) return 'invalid input';
  const path = i.path.length ? i.path.join('.') : 'input';
  if (i.code === 'unrecognized_keys') return `${path}: unknown field ${i.keys.join(',')}`;
  if (i.code === 'invalid_type' && i.input === undefined) return `${path}: required`;
  if (i.message && !ZOD_WORDS.test(i.message)) return `${path}: ${i.message}`;
  return `${path}: ${rule(i)}`;
}

function rule(i: Issue): string {
  switch (i.code) {
    case 'invalid_type':
      return `want ${typeWord(i.expected)}, not ${kindOf(i.input)}`;
    case 'too_big':
      return bound('at most', 'below', i.maximum, i);
    case 'too_small':
      // A required text that came empty says so, as the ops' own `min(1, 'empty')` do.
      if (i.origin === 'string' && i.minimum === 1) return 'empty';
      return bound('at least', 'above', i.minimum, i);
    case 'invalid_value':
      return i.values && i.values.length > 1 ? `one of ${i.values.map(String).join(', ')}` : `must be ${String(i.values?.[0])}`;
    case 'invalid_format':
      return i.format === 'email'
        ? 'not an e-mail address'
        : i.format === 'url'
          ? 'not a URL'
          : i.format === 'regex'
            ? 'not in the accepted form (see /grammar)'
            : `not a valid ${i.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String((i as { divisor?: unknown }).divisor)}`;
    case 'invalid_union':
      return 'not one of the accepted forms';
    default:
      return 'not valid';
  }
}

function bound(inclusiveWord: string, strictWord: string, n: number | bigint | undefined, i: Issue): string {
  const one = Number(n) === 1;
  const unit = i.origin === 'string' ? (one ? ' character' : ' characters') : i.origin === 'array' || i.origin === 'set' ? (one ? ' item' : ' items') : '';
  if (i.exact) return `exactly ${String(n)}${unit}`;
  return `${i.inclusive === false ? strictWord : inclusiveWord} ${String(n)}${unit}`;
}

function typeWord(t: string | undefined): string {
  switch (t) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    default:
      return t ?? 'another type';
  }
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'number') return Number.isInteger(v) ? 'a number' : 'a fraction';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'boolean') return 'true/false';
  if (typeof v === 'object') return 'an object';
  return typeof v;
}
