// Per-request figures of /metrics: a count by operation, face and outcome code, and a latency
// histogram by operation and face. Kept in plain arrays, found by operation name, so a request
// costs a map lookup and a few additions (prom-client's own labelled observe hashes its labels
// on every call); /metrics reads them as Prometheus series (metrics.ts).

/** The face a call came through (Ctx['face'] of ops/types.ts, spelled here: types.ts imports this file). */
export type Face = 'rest' | 'mcp' | 'a2a';
const FACES: readonly Face[] = ['rest', 'mcp', 'a2a'];

/** Histogram bounds, seconds: from a cached KB lookup (sub-millisecond) to a slow compute call. */
export const LATENCY_BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

class Cell {
  /** Non-cumulative: buckets[i] counts durations in (bound[i-1], bound[i]]; the last is +Inf. */
  readonly buckets = new Float64Array(LATENCY_BOUNDS.length + 1);
  sum = 0;
  count = 0;
  /** Outcome code (`ok` or the error code) → count. Codes come from the one table of src/core/kernel/errors.ts. */
  readonly codes = new Map<string, number>();
}

export interface RequestSeries {
  op: string;
  face: Face;
  buckets: Float64Array;
  sum: number;
  count: number;
  codes: ReadonlyMap<string, number>;
}

export class RequestMetrics {
  private byOp = new Map<string, Array<Cell | undefined>>();

  /** One finished call: its operation (a registry name, never a path or an id), face, outcome code and duration. */
  done(op: string, face: Face, code: string, ms: number): void {
    let row = this.byOp.get(op);
    if (!row) this.byOp.set(op, (row = []));
    const f = face === 'rest' ? 0 : face === 'mcp' ? 1 : 2;
    const c = (row[f] ??= new Cell());
    const s = ms / 1000;
    let i = 0;
    while (i < LATENCY_BOUNDS.length && s > LATENCY_BOUNDS[i]!) i++;
    c.buckets[i]!++;
    c.sum += s;
    c.count++;
    c.codes.set(code, (c.codes.get(code) ?? 0) + 1);
  }

  *series(): Generator<RequestSeries> {
    for (const [op, row] of this.byOp)
      for (let f = 0; f < FACES.length; f++) {
        const c = row[f];
        if (c) yield { op, face: FACES[f]!, buckets: c.buckets, sum: c.sum, count: c.count, codes: c.codes };
      }
  }
}
