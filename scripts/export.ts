// npm run export — writes today's open-data export of the data directory (CX_DATA) now, with the
// same code as the daily job (src/core/exports), replacing one of the same day. Safe beside a
// running server on the same directory (SQLite WAL; the export is committed by a rename).
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { buildCore } from '../src/compose/core.js';
import { listingText } from '../src/core/exports/ops.js';
import { runExport } from '../src/core/exports/run.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

const config = loadConfig();
const store = openSqliteStore(config.dataDir, config.sync, config.workspaceKey);
const core = buildCore(config, store, pino({ level: config.logLevel }));
try {
  const t0 = performance.now();
  const index = await runExport(core);
  const dates = await store.exportFiles.dates();
  const files = index.files.map((f) => ({ name: f.name, size: f.size, sha256: f.sha256, rows: f.rows }));
  console.log(
    listingText({
      date: index.date,
      generated: index.generated,
      files,
      bytes: files.reduce((n, f) => n + f.size, 0),
      license: index.license,
      kid: index.kid,
      kept: dates,
    }),
  );
  console.log(
    `written in ${((performance.now() - t0) / 1000).toFixed(1)} s to ${config.dataDir}/export/${index.date}${index.withheld ? `; ${index.withheld} rows withheld by the scrubber` : ''}`,
  );
} finally {
  await store.close();
}
