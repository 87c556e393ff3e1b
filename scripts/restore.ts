// npm run restore -- <file>: puts a backup of npm run backup into the data directory (CX_DATA,
// default ./data), which must hold no database yet. Start the service on it afterwards.
import { resolve } from 'node:path';
import { restoreDataDir } from '../src/store/sqlite/backup.js';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: npm run restore -- <file>   (into CX_DATA, default ./data, which must hold no database)');
  process.exit(2);
}
try {
  const dir = resolve(process.env.CX_DATA || './data');
  const m = restoreDataDir(file, dir);
  console.log(`ok restore ${dir} files=${m.files.length} backup_created=${m.created}`);
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
