// Digests: one fact per line about what a library version changed, by topic. Reads give the best
// digest of a version, the line diff of a range a..b, or the API set diff when topic is `api`.
import { diffArrays } from 'diff';
import { z } from 'zod';
import { CxError } from '../kernel/errors.js';
import { defineOp } from '../kernel/types.js';
import { flat } from './render.js';
import { hint, next } from '../kernel/hints.js';

const LIB = z
  .string()
  .min(1)
  .max(120)
  .regex(/^(?:@[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w./-]*$/, 'want a package name');
const VER = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[0-9A-Za-z][0-9A-Za-z.+-]*$/, 'want a version');
const TOPIC = z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, '1-32 of a-z 0-9 -');
const MAX_LINES = 200;

const splitLines = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');

export const dgAddOp = defineOp({
  name: 'dg.add',
  title: 'Publish a digest',
  summary: 'Publish digest lines for a library version and topic (e.g. breaking, api, deprecations, security): one fact per line; `api` lines are API names.',
  input: z.object({ lib: LIB, ver: VER, topic: TOPIC, lines: z.string().min(1).max(8192) }).strict(),
  output: z.object({ lib: z.string(), ver: z.string(), topic: z.string(), lines: z.number() }),
  auth: 'token',
  readOnly: false,
  freeze: 'write',
  idempotent: true,
  quota: ['write', 'write_net'],
  scrub: ['lines'],
  hazard: ['lines'],
  bodyField: 'lines',
  rest: { method: 'POST', path: '/dg', status: 201 },
  async run(ctx, input) {
    const lines = splitLines(input.lines);
    if (lines.length > MAX_LINES) throw new CxError('bad', `lines: ${lines.length}, at most ${MAX_LINES}`);
    await ctx.core.store.kb.putDigest({
      lib: input.lib,
      ver: input.ver,
      topic: input.topic,
      author: ctx.caller.identity!.id,
      lines: lines.join('\n'),
      score: 0,
      created: ctx.core.now(),
    });
    return { lib: input.lib, ver: input.ver, topic: input.topic, lines: lines.length };
  },
  text: (o, ctx) => `ok dg ${o.lib}@${o.ver} ${o.topic} lines=${o.lines}\n${next(ctx, hint('dg.get', { lib: o.lib, x: o.ver, topic: o.topic }))}`,
});

export const dgLibOp = defineOp({
  name: 'dg.lib',
  title: 'Digests of a library',
  summary: 'Digest lines of a library: the best digest of each version and topic, newest first.',
  input: z.object({ lib: LIB }).strict(),
  output: z.object({
    lib: z.string(),
    rows: z.array(z.object({ ver: z.string(), topic: z.string(), by: z.string(), date: z.string(), lines: z.array(z.string()) })),
  }),
  auth: 'anon',
  readOnly: true,
  standby: true,
  rest: { method: 'GET', path: '/dg/:lib', cache: 'public, max-age=300' },
  async run(ctx, input) {
    const rows = await ctx.core.store.kb.digestsOf(input.lib, 50);
    if (!rows.length) throw new CxError('notfound', `no digests for ${input.lib}`);
    return {
      lib: input.lib,
      rows: rows.map((d) => ({ ver: d.ver, topic: d.topic, by: d.author, date: new Date(d.created).toISOString().slice(0, 10), lines: d.lines.split('\n') })),
    };
  },
  text: (o, ctx) =>
    [
      `dg ${o.lib} digests=${o.rows.length}`,
      ...o.rows.flatMap((r) => r.lines.map((l) => `${r.ver} ${r.topic}: ${flat(l, 300)}`)),
      next(ctx, hint('dg.get', { lib: o.lib, x: '<a>..<b>', topic: '<topic>' })),
    ].join('\n'),
});

const RANGE = /^([0-9A-Za-z][0-9A-Za-z.+-]*)\.\.([0-9A-Za-z][0-9A-Za-z.+-]*)$/;

export const dgGetOp = defineOp({
  name: 'dg.get',
  title: 'Digest of a version, or diff of a range',
  summary: 'Best digest of a version and topic; with x = a..b the line diff between the two versions, or for topic `api` the API set diff (added, removed).',
  input: z.object({ lib: LIB, x: z.string().min(1).max(90), topic: TOPIC }).strict(),
  output: z.object({
    lib: z.string(),
    topic: z.string(),
    ver: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    lines: z.array(z.string()),
  }),
  auth: 'anon',
  readOnly: true,
  rest: { method: 'GET', path: '/dg/:lib/:x/:topic', cache: 'public, max-age=300' },
  async run(ctx, input) {
    const kb = ctx.core.store.kb;
    const range = RANGE.exec(input.x);
    if (!range) {
      if (!VER.safeParse(input.x).success) throw new CxError('bad', 'x: a version or a range a..b');
      const d = await kb.bestDigest(input.lib, input.x, input.topic);
      if (!d) throw new CxError('notfound', `no ${input.topic} digest for ${input.lib}@${input.x}`);
      return { lib: input.lib, topic: input.topic, ver: input.x, lines: d.lines.split('\n') };
    }
    const [, a, b] = range as unknown as [string, string, string];
    const [da, db] = await Promise.all([kb.bestDigest(input.lib, a, input.topic), kb.bestDigest(input.lib, b, input.topic)]);
    if (!da || !db) throw new CxError('notfound', `need ${input.topic} digests of both ${input.lib}@${a} and @${b}`);
    const la = da.lines.split('\n');
    const lb = db.lines.split('\n');
    let lines: string[];
    if (input.topic === 'api') {
      // APIs are a set: order carries no meaning.
      const sa = new Set(la);
      const sb = new Set(lb);
      lines = [
        ...[...sb]
          .filter((x) => !sa.has(x))
          .sort()
          .map((x) => `+ ${x}`),
        ...[...sa]
          .filter((x) => !sb.has(x))
          .sort()
          .map((x) => `- ${x}`),
      ];
    } else {
      lines = diffArrays(la, lb).flatMap((part) => part.value.map((l) => `${part.added ? '+' : part.removed ? '-' : ' '} ${l}`));
    }
    return { lib: input.lib, topic: input.topic, from: a, to: b, lines };
  },
  text: (o, ctx) =>
    [
      o.ver
        ? `dg ${o.lib}@${o.ver} ${o.topic} lines=${o.lines.length}`
        : `dg ${o.lib} ${o.from}..${o.to} ${o.topic} changes=${o.lines.filter((l) => !l.startsWith(' ')).length}`,
      ...o.lines.map((l) => (o.ver ? flat(l, 300) : `${l.slice(0, 2)}${flat(l.slice(2), 300)}`)),
      next(ctx, hint('dg.lib', { lib: o.lib })),
    ].join('\n'),
});

export const digestOps = [dgAddOp, dgLibOp, dgGetOp];
