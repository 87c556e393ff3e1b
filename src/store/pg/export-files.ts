// ExportFiles on PostgreSQL (port: src/core/exports/ports.ts): the export files in the database
// (migration 018), shared by every replica, where SQLite's adapter keeps them in its data directory
// (src/store/files/exports.ts). A file is BYTEA chunks of at most CHUNK bytes, written as the stream
// comes (never a whole file in memory) and read back lazily, ranges from the chunk that holds their
// start. A draft's files are `draft` rows until commit turns them `live` in one transaction, the
// date's former live files turning `old`: a reader sees a whole export or none, and a stream that
// began before keeps reading its own (old) chunks, as an open descriptor keeps a replaced file.
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import type { ExportDraft, ExportFiles, StoredFile } from '../../core/exports/ports.js';
import type { Sql } from './sql.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** Bytes per chunk row. */
const CHUNK = 1 << 20;
/** Drafts left by a process that died are removed after a day (another may be writing one now). */
const STALE_MS = 86_400_000;
/** Replaced or removed files stay readable this long for streams that opened them before. */
const OLD_MS = 3_600_000;
/** Chunks read per round trip of a stream. */
const READ_AHEAD = 4;

export function pgExportFiles(sql: Sql, now: () => number): ExportFiles {
  const check = (date: string, name?: string) => {
    if (!DATE.test(date) || (name !== undefined && !NAME.test(name))) throw new Error('bad export date or file name');
  };
  const live = async (date: string, name: string) =>
    (
      await sql.query<{ fid: string; size: number; mtime: number }>(
        "SELECT fid, size, mtime FROM export_files WHERE date = $1 AND name = $2 AND state = 'live'",
        [date, name],
      )
    ).rows[0] ?? null;

  /** The bytes of [start, end] (inclusive, as fs streams count) of one writing of a file, chunk by chunk. */
  async function* chunks(fid: string, name: string, start: number, end: number): AsyncGenerator<Buffer> {
    let pos = start;
    while (pos <= end) {
      const rows = (
        await sql.query<{ pos: number; bytes: Buffer }>(
          'SELECT pos, bytes FROM export_chunks WHERE fid = $1 AND name = $2 AND pos + octet_length(bytes) > $3 ORDER BY seq LIMIT $4',
          [fid, name, pos, READ_AHEAD],
        )
      ).rows;
      if (!rows.length) return;
      for (const r of rows) {
        if (r.pos > end) return;
        const b = Buffer.from(r.bytes);
        const piece = b.subarray(Math.max(0, pos - r.pos), Math.min(b.length, end - r.pos + 1));
        if (piece.length) yield piece;
        pos = r.pos + b.length;
        if (pos > end) return;
      }
    }
  }

  return {
    async begin(date) {
      check(date);
      const t = now();
      await sql.query("DELETE FROM export_files WHERE (state = 'draft' AND mtime < $1) OR (state = 'old' AND mtime < $2)", [t - STALE_MS, t - OLD_MS]);
      const fid = randomBytes(12).toString('base64url');
      let done = false;
      const d: ExportDraft = {
        create(name) {
          check(date, name);
          let buf: Buffer[] = [];
          let held = 0;
          let seq = 0;
          let size = 0;
          const put = async (b: Buffer) => {
            await sql.query('INSERT INTO export_chunks (fid, name, seq, pos, bytes) VALUES ($1, $2, $3, $4, $5)', [fid, name, seq++, size, b]);
            size += b.length;
          };
          // Full chunks go out as they fill; the rest waits for more bytes or the end.
          const drain = async (all: boolean) => {
            let b = Buffer.concat(buf);
            while (b.length >= CHUNK || (all && b.length)) {
              await put(b.subarray(0, CHUNK));
              b = b.subarray(Math.min(CHUNK, b.length));
            }
            buf = b.length ? [b] : [];
            held = b.length;
          };
          return new Writable({
            construct(cb) {
              // The same name again in one draft starts the file over (its chunks cascade away).
              sql
                .tx(async (q) => {
                  await q.query('DELETE FROM export_files WHERE fid = $1 AND name = $2', [fid, name]);
                  await q.query("INSERT INTO export_files (fid, name, date, state, size, mtime) VALUES ($1, $2, $3, 'draft', 0, $4)", [fid, name, date, now()]);
                })
                .then(() => cb(), cb);
            },
            write(chunk: Buffer, _enc, cb) {
              buf.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
              held += chunk.length;
              if (held < CHUNK) return cb();
              drain(false).then(() => cb(), cb);
            },
            final(cb) {
              drain(true)
                .then(() => sql.query('UPDATE export_files SET size = $3, mtime = $4 WHERE fid = $1 AND name = $2', [fid, name, size, now()]))
                .then(() => cb(), cb);
            },
          });
        },
        async commit() {
          if (done) throw new Error('export draft already closed');
          done = true;
          await sql.tx(async (q) => {
            // Commits of one date (any replica) one at a time: each sees the other's live files.
            await q.query("SELECT pg_advisory_xact_lock(hashtext('cx.export.' || $1))", [date]);
            const t = now();
            await q.query("UPDATE export_files SET state = 'old', mtime = $2 WHERE date = $1 AND state = 'live'", [date, t]);
            await q.query("UPDATE export_files SET state = 'live', mtime = $2 WHERE fid = $1 AND state = 'draft'", [fid, t]);
          });
        },
        async abort() {
          done = true;
          await sql.query("DELETE FROM export_files WHERE fid = $1 AND state = 'draft'", [fid]);
        },
      };
      return d;
    },
    async dates() {
      return (await sql.query<{ date: string }>("SELECT DISTINCT date FROM export_files WHERE state = 'live' ORDER BY date")).rows.map((r) => r.date);
    },
    async open(date, name): Promise<StoredFile | null> {
      check(date, name);
      const f = await live(date, name);
      if (!f) return null;
      return {
        size: f.size,
        mtime: f.mtime,
        stream: (o = {}) => Readable.from(chunks(f.fid, name, o.start ?? 0, Math.min(o.end ?? Infinity, f.size - 1)), { objectMode: false }),
      };
    },
    async read(date, name) {
      check(date, name);
      const f = await live(date, name);
      if (!f) return null;
      const parts: Buffer[] = [];
      for await (const b of chunks(f.fid, name, 0, f.size - 1)) parts.push(b);
      return Buffer.concat(parts);
    },
    async remove(date) {
      check(date);
      // Gone for readers now; streams already open keep their bytes until the sweep.
      await sql.query("UPDATE export_files SET state = 'old', mtime = $2 WHERE date = $1 AND state = 'live'", [date, now()]);
    },
  };
}
