// Feed rows of the benchmark (BENCH_ONLY=feeds), against the running server's sample KB: the
// newest-fixes feed in both formats, three ways. Cached: a conditional GET whose If-None-Match
// matches (304: the list is read and hashed, nothing rendered or sent). Memo: a plain GET of the
// same URL (the list is read and hashed, the last rendering reused). Uncached: every request a new
// URL (a `since` older than every entry, so the same items), rendered each time.
import type { BenchRun, Row } from './load.js';

const T0 = Date.parse('2000-01-01T00:00:00Z');

export async function benchFeeds(cx: string, run: BenchRun): Promise<Row[]> {
  const rows: Row[] = [];
  for (const ext of ['atom', 'json'] as const) {
    const url = `${cx}/f/kb.${ext}`;
    const first = await fetch(url);
    const body = await first.text();
    if (first.status !== 200) throw new Error(`bench feeds: ${url} answered ${first.status} ${body.slice(0, 200)}`);
    const etag = first.headers.get('etag')!;
    rows.push(await run(`GET /f/kb.${ext} cached (304)`, url, { headers: { 'if-none-match': etag } }));
    rows.push(await run(`GET /f/kb.${ext} memo`, url));
    let k = 0;
    rows.push(
      await run(`GET /f/kb.${ext} uncached`, url, {
        requests: [{ setupRequest: (req) => ({ ...req, path: `/f/kb.${ext}?since=${new Date(T0 + k++).toISOString()}` }) }],
      }),
    );
  }
  return rows;
}
