// The least a KB lookup can cost in this design, for comparison with the service's rows: a bare
// node:http server that reads a POST /e body, runs ErrSig (the built dist/) and the same indexed
// read of the fine signature's entries as the SQLite store (one statement, same pragmas), and
// answers the first fix as text; GET /h/{hex} the same without ErrSig. No quotas, no validation,
// no hit counting, no memo, no rendering beyond one line. Started by bench/prof-kb.ts with BARE=1.
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { errsig } from '../dist/src/core/kb/errsig/errsig.js';
import { bestBy } from '../dist/src/store/sqlite/kb-rows.js';

const db = new Database(join(process.env.CX_DATA, 'commons.db'), { readonly: true });
db.pragma('cache_size = -65536');
// The statement of the SQLite store's byHash (src/store/sqlite/kb.ts).
const best = db.prepare(bestBy('kb_entries e', 'e.h'));
const answer = (res, rows) => {
  const body = rows.length ? `e: match=exact k/${rows[0].id}\nfix: ${rows[0].fix}\n` : 'err notfound\n';
  res.writeHead(rows.length ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};
createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/healthz') return res.end('ok\n');
  if (req.method === 'GET' && req.url.startsWith('/h/')) return answer(res, best.all(req.url.slice(3), 5));
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => answer(res, best.all(errsig(Buffer.concat(chunks).toString('utf8')).h, 5)));
}).listen(Number(process.env.PORT), '127.0.0.1');
