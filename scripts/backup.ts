// npm run backup -- <file>: a consistent copy of the SQLite data directory (CX_DATA, default ./data)
// while the service runs: every database by SQLite's online backup, the secrets files, the committed
// exports (src/store/sqlite/backup.ts). The file holds the keys: keep it as secret as they are.
import { resolve } from 'node:path';
import { backupDataDir } from '../src/store/sqlite/backup.js';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: npm run backup -- <file.tar|file.tar.gz>   (data directory: CX_DATA, default ./data)');
  process.exit(2);
}
if (process.env.CX_DATABASE_URL) {
  console.error('backup: CX_DATABASE_URL is set: back up PostgreSQL with pg_dump (README "Operating"); this command copies a SQLite data directory');
  process.exit(2);
}
backupDataDir(resolve(process.env.CX_DATA || './data'), file).then(
  (m) => {
    console.log(`ok backup ${resolve(file)} files=${m.files.length} bytes=${m.files.reduce((a, f) => a + f.bytes, 0)} created=${m.created}`);
    console.log('note: it holds the service keys (sealed notes, mail and drops need them): keep it as secret as the data directory');
  },
  (e: Error) => {
    console.error(e.message);
    process.exit(1);
  },
);
