// Group writes: rows that many concurrent requests each insert on their own are written together.
// One batch is in flight at a time; rows added meanwhile wait and go in the next one, so under load
// a batch holds what arrived during one round trip, and alone a row is written at once, as before.
// Each `add` resolves (or rejects) with its batch: the caller still knows its row is committed
// before it answers. Why: a statement costs PostgreSQL ~100-200 µs of CPU whatever it writes
// (bench:scale, 2026-11-28); a publish wrote its content-origin row in a statement of its own.
export function groupWriter<T>(write: (rows: readonly T[]) => Promise<void>, max = 500): (row: T) => Promise<void> {
  let waiting: Array<{ row: T; done: (e?: unknown) => void }> = [];
  let busy = false;
  const run = () => {
    if (busy || !waiting.length) return;
    busy = true;
    const batch = waiting.slice(0, max);
    waiting = waiting.slice(batch.length);
    write(batch.map((w) => w.row))
      .then(
        () => {
          for (const w of batch) w.done();
        },
        (e: unknown) => {
          for (const w of batch) w.done(e ?? new Error('group write failed'));
        },
      )
      .finally(() => {
        busy = false;
        run();
      });
  };
  return (row) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ row, done: (e) => (e === undefined ? resolve() : reject(e)) });
      run();
    });
}
