// Valid and invalid inputs of an operation, derived from its zod schema through zod's JSON Schema
// export (io: input), so that every operation added to the registry is fuzzed without a line here.
// "Valid" means schema-shaped: refinements and transforms zod cannot export may still refuse it, which
// the properties allow (a 4xx is fine; a 5xx, a hang or a leak is not).
import fc from 'fast-check';
import { z } from 'zod';
import type { AnyOperation } from '../../src/core/kernel/types.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: Json[];
  const?: Json;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  $defs?: Record<string, Schema>;
  default?: Json;
};

/** The op's input as JSON Schema (what the MCP tool list and OpenAPI publish too). */
export function inputSchema(op: AnyOperation): Schema {
  return z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as Schema;
}

// Strings kept short: the fuzz is about shapes and edges, and the 2-core box is shared.
const SHORT = 24;

function regexOf(p: string): RegExp | null {
  for (const flags of ['', 'u']) {
    try {
      return new RegExp(p, flags);
    } catch {
      /* try the next flags */
    }
  }
  return null;
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? SHORT, Math.max(min, SHORT)));
  if (s.format === 'email') return fc.emailAddress().filter((e) => e.length >= min && e.length <= (s.maxLength ?? Infinity));
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
  if (s.format === 'date-time' || s.format === 'datetime')
    return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.pattern) {
    const lim = s.maxLength ?? Infinity;
    // `^<one char class>+$` (or {a,b}, *): a string of that class's characters within the length bounds.
    const one = /^\^(\[(?:\\.|[^\]\\])+\]|\\[dws]|\.)(?:[+*]|\{\d+(?:,\d*)?\})\$$/.exec(s.pattern);
    const unit = one ? regexOf(`^${one[1]}$`) : null;
    if (unit)
      return fc.string({
        unit: fc.stringMatching(unit).filter((c) => c.length === 1),
        minLength: Math.max(min, one![0].includes('+') ? 1 : 0),
        maxLength: Math.max(min, Math.min(lim, min + SHORT)),
      });
    const re = regexOf(s.pattern);
    if (re) {
      const arb = fc.stringMatching(re, { size: 'xsmall' });
      const fits = (x: string) => x.length >= min && x.length <= lim;
      // A filter that never passes would spin forever: keep it only when samples show it passes.
      return fc.sample(arb, { numRuns: 200, seed: 1 }).filter(fits).length >= 20 ? arb.filter(fits) : arb;
    }
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'binary' }) },
  );
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-9) : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-9) : undefined);
  if (integer) {
    const min = Math.max(lo ?? -1e6, Number.MIN_SAFE_INTEGER);
    const max = Math.min(hi ?? 1e6, Number.MAX_SAFE_INTEGER);
    // Edges weigh more: limits are where off-by-one bugs live.
    return fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) }), fc.constantFrom(Math.ceil(min), Math.floor(Math.max(min, max))));
  }
  return fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of values the schema accepts (modulo refinements it cannot state). */
export function validArb(s: Schema, root: Schema = s, depth = 0): fc.Arbitrary<Json> {
  if (s.$ref) {
    const name = s.$ref.replace(/^#\/\$defs\//, '');
    const target = s.$ref === '#' ? root : root.$defs?.[name];
    return depth > 3 || !target ? fc.constant(null) : validArb(target, root, depth + 1);
  }
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => validArb(a, root, depth + 1)));
  if (s.allOf?.length) return validArb(Object.assign({}, ...s.allOf) as Schema, root, depth + 1);
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t) => validArb({ ...s, type: t }, root, depth)));
  switch (type[0]) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => validArb(p, root, depth + 1)));
      const min = s.minItems ?? 0;
      return fc.array(s.items ? validArb(s.items, root, depth + 1) : fc.string({ maxLength: 8 }), {
        minLength: min,
        maxLength: Math.max(min, Math.min(s.maxItems ?? 3, 3)),
      });
    }
    case 'object':
    case undefined: {
      if (!s.properties && type[0] === undefined) return depth > 2 ? fc.constant(null) : (fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>);
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const rec: Record<string, fc.Arbitrary<Json>> = {};
      for (const [k, v] of Object.entries(props)) rec[k] = validArb(v, root, depth + 1);
      return fc.record(rec, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) }) as fc.Arbitrary<Json>;
    }
    default:
      return fc.constant(null);
  }
}

// Values that break types, bounds and parsers: what a careless or hostile client sends.
const NASTY: Json[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\u202e',
  '%00',
  '%ff',
  '../../../etc/passwd',
  "'; DROP TABLE x; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  '\r\nX-Injected: 1',
  'x'.repeat(70_000),
  [],
  [[[[[]]]]],
  {},
  JSON.parse('{"__proto__":{"polluted":1}}') as Json,
  { constructor: { prototype: { polluted: 1 } } },
];

function typesOf(s: Schema): string[] {
  return Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
}

/** A value of the wrong type for `s`, or one just past its bounds. */
function wrongFor(s: Schema): fc.Arbitrary<Json> {
  const edges: Json[] = [];
  const t = typesOf(s);
  if (t.includes('string')) {
    if (s.maxLength !== undefined) edges.push('y'.repeat(s.maxLength + 1));
    if (s.minLength) edges.push('y'.repeat(s.minLength - 1));
  }
  if (t.includes('integer') || t.includes('number')) {
    if (s.maximum !== undefined) edges.push(s.maximum + 1);
    if (s.minimum !== undefined) edges.push(s.minimum - 1);
    if (t.includes('integer')) edges.push(0.5);
  }
  if (t.includes('array') && s.maxItems !== undefined) edges.push(Array.from({ length: s.maxItems + 1 }, () => 'z'));
  return edges.length ? fc.oneof(fc.constantFrom(...edges), fc.constantFrom(...NASTY)) : fc.constantFrom(...NASTY);
}

/**
 * Inputs the schema should refuse (or that sit on its edges): a non-object, a required field
 * dropped, a field of the wrong type or past its bound, an unknown or prototype-polluting key.
 */
export function invalidArb(s: Schema): fc.Arbitrary<Json> {
  const props = Object.entries(s.properties ?? {});
  const valid = validArb(s) as fc.Arbitrary<Record<string, Json>>;
  const ways: fc.Arbitrary<Json>[] = [
    fc.constantFrom<Json>(null, [], 'text', 42, [{}]),
    valid.chain((v) => fc.constantFrom('__proto__', 'constructor', 'zz_unknown', '').map((k) => ({ ...v, [k]: 1 }) as Json)),
  ];
  const required = s.required ?? [];
  if (required.length)
    ways.push(valid.chain((v) => fc.constantFrom(...required).map((k) => Object.fromEntries(Object.entries(v).filter(([x]) => x !== k)) as Json)));
  if (props.length) {
    ways.push(
      fc
        .integer({ min: 0, max: props.length - 1 })
        .chain((i) => fc.tuple(valid, fc.constant(props[i]![0]), wrongFor(props[i]![1])))
        .map(([v, k, bad]) => ({ ...v, [k]: bad }) as Json),
    );
  }
  return fc.oneof(...ways);
}
