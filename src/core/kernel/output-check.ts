// The output contract, checked: with CX_CHECK_OUTPUT=1 (the test setup turns it on for the whole
// suite) every result an operation returns through invoke is parsed with its declared output schema,
// and a streaming op's items with its item schema, so a schema that lies to MCP clients and
// /openapi.json readers fails a test instead of shipping. Off in production: it costs a parse a call.
import type { z } from 'zod';
import type { AnyOperation, StreamItem } from './types.js';

/** Thrown (a plain Error: faces answer `err internal`) when a result breaks its op's output schema. */
export class OutputContractError extends Error {
  constructor(
    readonly op: string,
    readonly path: string,
    detail: string,
  ) {
    super(`output contract: ${op} returned a value that breaks its output schema at ${path}: ${detail}`);
    this.name = 'OutputContractError';
  }
}

// Read once: the KB front lane goes through invoke, and a process.env read a call is not free.
const ON = process.env.CX_CHECK_OUTPUT === '1';

/** Whether results are checked (fixed at load). */
export function outputCheckOn(): boolean {
  return ON;
}

function fail(op: string, err: z.ZodError, prefix: string[]): OutputContractError {
  const i = err.issues[0];
  const path = [...prefix, ...(i?.path ?? []).map(String)].join('.') || '(root)';
  const e = new OutputContractError(op, path, i ? `${i.code}: ${i.message}` : 'invalid');
  // Faces map unknown errors to `err internal` and tests run with logging off: say it where it shows.
  console.error(e.message);
  return e;
}

/** Checks one value against a schema; throws OutputContractError naming the op and the path. */
export function checkValue(op: string, schema: z.ZodType, value: unknown, prefix: string[] = []): void {
  const r = schema.safeParse(value);
  if (!r.success) throw fail(op, r.error, prefix);
}

/**
 * The op's result, checked: a plain result against `op.output`; a streaming result is wrapped so
 * each item is checked against `op.stream.item` as it is taken (next/return/throw delegate as is).
 */
export function checkOutput<O>(op: AnyOperation, out: O): O {
  if (!op.stream) {
    checkValue(op.name, op.output, out);
    return out;
  }
  if (typeof out !== 'object' || out === null || !(Symbol.asyncIterator in out)) return out;
  const spec = op.stream;
  const src = out as unknown as AsyncIterable<StreamItem>;
  const wrapped: AsyncIterable<StreamItem> = {
    [Symbol.asyncIterator]() {
      const it = src[Symbol.asyncIterator]();
      let n = 0;
      return {
        async next() {
          const r = await it.next();
          if (!r.done) checkValue(op.name, spec.item, r.value.item, [`item[${n++}]`]);
          return r;
        },
        return: it.return ? (v?: unknown) => it.return!(v) : undefined,
        throw: it.throw ? (e?: unknown) => it.throw!(e) : undefined,
      } as AsyncIterator<StreamItem>;
    },
  };
  return wrapped as unknown as O;
}
