// What every face does with a streaming operation's items when the call must end (an MCP tool call,
// an A2A task): collect them within the caller's bounds (max items, wait seconds), then summarize.
import { z } from 'zod';
import { limit } from './limits.js';
import type { AnyOperation, Ctx, StreamItem, StreamSpec } from './types.js';

export interface Collected {
  items: StreamItem[];
  last_id: string | null;
  /** Why collection stopped: `max` items reached, `wait` seconds passed, the stream `ended`, or the caller left (`closed`). */
  ended: 'max' | 'wait' | 'ended' | 'closed';
}

/** A streaming op's result as what it is (an op that declares `stream` must resolve to one). */
export function itemsOf(out: unknown): AsyncIterable<StreamItem> {
  if (typeof out === 'object' && out !== null && Symbol.asyncIterator in out) return out as AsyncIterable<StreamItem>;
  throw new Error('a streaming operation returned no AsyncIterable');
}

/** The bounds of a call from its parsed input (fields named by the op), capped by the limits table. */
export function boundsOf(spec: StreamSpec, input: unknown): { max: number; waitMs: number } {
  const rec = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const num = (v: unknown, cap: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, Math.min(v, cap)) : cap);
  return { max: num(rec[spec.max], limit('stream.max')), waitMs: num(rec[spec.wait], limit('stream.wait')) * 1000 };
}

/**
 * Takes items until `max`, `waitMs` or the end, calling `onItem` for each as it arrives, then closes
 * the iterator (`stop` aborts the op's own subscription so a pending read ends at once).
 */
export async function collect(
  items: AsyncIterable<StreamItem>,
  bounds: { max: number; waitMs: number },
  stop: AbortController,
  onItem: (it: StreamItem) => Promise<void> | void,
): Promise<Collected> {
  const out: Collected = { items: [], last_id: null, ended: 'ended' };
  if (bounds.max === 0) {
    stop.abort();
    return { ...out, ended: 'max' };
  }
  const it = items[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'wait'>((res) => (timer = setTimeout(() => res('wait'), bounds.waitMs)));
  const closed = new Promise<'closed'>((res) => stop.signal.addEventListener('abort', () => res('closed'), { once: true }));
  try {
    for (;;) {
      const next = await Promise.race([it.next(), timeout, closed]);
      if (next === 'wait' || next === 'closed') {
        out.ended = next;
        break;
      }
      if (next.done) break;
      out.items.push(next.value);
      out.last_id = next.value.id;
      await onItem(next.value);
      if (out.items.length >= bounds.max) {
        out.ended = 'max';
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    stop.abort();
    void it.return?.().catch(() => undefined);
  }
  return out;
}

/** The collected result as text: one block per item, then what to do next. */
export function collectedText(op: AnyOperation, c: Collected, ctx: Ctx): string {
  const spec = op.stream!;
  return [
    `stream ${op.name} items=${c.items.length} last_id=${c.last_id ?? '-'} ended=${c.ended}`,
    ...c.items.map((i) => `id=${i.id} ${spec.text(i.item, ctx)}`),
    `next: call again with ${spec.resume}=${c.last_id ?? '<last id>'} for what follows${ctx.face === 'mcp' ? ' (send a progressToken to get items as they happen)' : ''}`,
  ].join('\n');
}

/** JSON schema source of the collected result (MCP outputSchema). */
export function collectedSchema(spec: StreamSpec): z.ZodType {
  return z.object({
    items: z.array(z.object({ id: z.string(), item: spec.item })),
    last_id: z.string().nullable(),
    ended: z.enum(['max', 'wait', 'ended', 'closed']),
  });
}
