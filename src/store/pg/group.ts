// Group writes: rows that many concurrent requests each insert on their own are written together.
// One batch is in flight at a time; rows added meanwhile wait and go in the next one, so under load
// a batch holds what arrived during one round trip, and alone a row is written at once, as before.
// Each `add` resolves (or rejects) with its batch: the caller still knows its row is committed
// before it answers. Why: a statement costs PostgreSQL ~100-200 µs of CPU whatever it writes
// (bench:scale, 2026-11-28); a publish wrote its content-origin row, a drop its row, in a statement
// of its own.
export interface GroupOpts<T> {
  /** Rows per statement at most. */
  max?: number;
  /** Rows with the same key never share a batch (an upsert may touch a row once per statement). */
  keyOf?: (row: T) => string;
}

/** `write` returns one result per row, in order (none for `void`). */
export function groupWriter<T, R = void>(write: (rows: readonly T[]) => Promise<R[] | void>, opts: GroupOpts<T> = {}): (row: T) => Promise<R> {
  const max = opts.max ?? 500;
  let waiting: Array<{ row: T; ok: (r: R) => void; fail: (e: unknown) => void }> = [];
  let busy = false;
  const run = () => {
    if (busy || !waiting.length) return;
    busy = true;
    const batch: typeof waiting = [];
    const later: typeof waiting = [];
    const keys = new Set<string>();
    for (const w of waiting) {
      const k = opts.keyOf?.(w.row);
      if (batch.length >= max || (k !== undefined && keys.has(k))) later.push(w);
      else {
        if (k !== undefined) keys.add(k);
        batch.push(w);
      }
    }
    waiting = later;
    write(batch.map((w) => w.row))
      .then(
        (out) => batch.forEach((w, i) => w.ok((out ? out[i] : undefined) as R)),
        (e: unknown) => {
          for (const w of batch) w.fail(e ?? new Error('group write failed'));
        },
      )
      .finally(() => {
        busy = false;
        run();
      });
  };
  return (row) =>
    new Promise<R>((ok, fail) => {
      waiting.push({ row, ok, fail });
      run();
    });
}
