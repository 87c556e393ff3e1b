// One agent-facing operation standing for several (their `via`): it selects one by a field (an
// `act`, a kind) and runs it through invoke as the same caller, so that operation's auth, checks,
// validation, freeze and quota apply unchanged, and answers its output (with the selector) and its
// text. The several keep their REST routes; agents get one MCP tool and A2A skill, not one each:
// every tool costs the tool list about 30 tokens before its fields (docs/decisions.md).
import { z } from 'zod';
import { CxError } from './errors.js';
import { defineOp, type AnyOperation, type AuthClass, type Ctx, type Operation } from './types.js';

export interface ViaSpec {
  name: string;
  title: string;
  summary: string;
  auth: AuthClass;
  /** The selecting field; each operation names its value in `via.input[key]`. */
  key: string;
  ops: readonly AnyOperation[];
  /** The fields the operations take besides the selector (each operation validates its own). */
  fields: z.ZodRawShape;
}

export function viaOp(spec: ViaSpec): Operation<z.ZodObject, Record<string, unknown>> {
  const acts = new Map<string, AnyOperation>();
  for (const o of spec.ops) {
    const v = o.via?.input[spec.key];
    if (o.via?.op !== spec.name || v === undefined) throw new Error(`${o.name}: want via ${spec.name} with ${spec.key}`);
    acts.set(v, o);
  }
  const names = [...acts.keys()] as [string, ...string[]];
  const key = spec.key;
  return defineOp({
    name: spec.name,
    title: spec.title,
    summary: spec.summary,
    input: z.object({ [key]: z.enum(names), ...spec.fields }).strict(),
    output: z.looseObject({ [key]: z.enum(names) }),
    auth: spec.auth,
    readOnly: spec.ops.every((o) => o.readOnly),
    ...(spec.ops.some((o) => o.destructive) ? { destructive: true } : {}),
    ...(spec.ops.every((o) => o.idempotent) ? { idempotent: true } : {}),
    // The chosen operation's own freeze kind (it checks it again itself); quota is charged by it alone.
    ...(spec.ops.some((o) => o.freeze)
      ? {
          freeze: (input: Record<string, unknown>) => {
            const f = acts.get(input[key] as string)!.freeze;
            return typeof f === 'function' ? null : (f ?? null);
          },
        }
      : {}),
    async run(ctx: Ctx, input: Record<string, unknown>) {
      const { [key]: act, ...fields } = input;
      if (!ctx.call) throw new CxError('internal', `${spec.name} runs only through invoke`);
      const { out } = await ctx.call(acts.get(act as string)!, fields);
      return { [key]: act, ...(out as Record<string, unknown>) };
    },
    text: (o: Record<string, unknown>, ctx: Ctx) => {
      const { [key]: act, ...out } = o;
      return acts.get(act as string)!.text(out, ctx);
    },
  });
}
