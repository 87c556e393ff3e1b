// The framework+database floor: a fastify route doing one better-sqlite3 point lookup, nothing
// else (no auth, no quotas, no negotiation). The CPU a commons request spends above this is what
// the service itself adds. Started in its own process so its CPU can be read from /proc.
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'cx-bench-floor-'));
const db = new Database(join(dir, 'floor.db'));
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE kv (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
const ins = db.prepare('INSERT INTO kv (id, v) VALUES (?, ?)');
db.transaction(() => {
  for (let i = 0; i < 10_000; i++) ins.run(i, `value ${i} `.repeat(4));
})();
const get = db.prepare('SELECT v FROM kv WHERE id = ?');

const app = Fastify({ logger: false });
app.get('/row/:id', async (req, reply) => {
  const row = get.get(Number(req.params.id));
  if (!row) return reply.code(404).send('err notfound\n');
  return reply.type('text/plain; charset=utf-8').send(row.v + '\n');
});
app.get('/healthz', async () => 'ok\n');
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const stop = () => {
  void app.close().finally(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
