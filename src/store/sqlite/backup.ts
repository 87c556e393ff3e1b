// Backup and restore of a SQLite data directory (npm run backup / restore; README "Operating").
// Every SQLite database of the directory (commons.db, kb-hits.db, catalog.db: any `*.db`) is copied
// with SQLite's online backup while the service writes: one step over all pages, so each copy is
// the database as of one read transaction (in WAL mode the writer goes on meanwhile). Each file is
// consistent by itself; they are separate databases (lookup counts and the catalog have no foreign
// keys into commons.db). The secrets files (seal, drops, workspace keys, signing ring, operator
// tokens) go in too: notes, mail and drops are sealed with them and cannot be read without them, so
// the backup is as secret as they are (written 0600). Committed open-data exports go in; the git
// mirror does not (the git.mirror job rebuilds it from the database).
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SECRET_FILES } from '../files/keys.js';

export interface BackupManifest {
  format: 1;
  created: string;
  /** Every file of the backup with its size and SHA-256 (restore checks them). */
  files: Array<{ name: string; bytes: number; sha256: string }>;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const tarArgs = (file: string) => (/\.(tgz|tar\.gz)$/.test(file) ? ['-z'] : []);

function tar(args: string[]): void {
  const r = spawnSync('tar', args, { encoding: 'utf8' });
  if (r.error) throw new Error(`backup: tar did not run (${r.error.message})`);
  if (r.status !== 0) throw new Error(`backup: tar failed: ${r.stderr.trim().split('\n')[0]}`);
}

function walk(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(dir, join(rel, e.name)) : e.isFile() ? [join(rel, e.name)] : [],
  );
}

/** One database file copied by the online backup in a single step (one read transaction). */
async function copyDb(src: string, dest: string): Promise<void> {
  const db = new Database(src, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    await db.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  // The copy is a plain database file: no WAL to carry.
  const copy = new Database(dest);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Writes a backup of `dataDir` to `file` (a tar; gzip when it ends in .tar.gz or .tgz). */
export async function backupDataDir(dataDir: string, file: string): Promise<BackupManifest> {
  const data = resolve(dataDir);
  const out = resolve(file);
  if (!existsSync(join(data, 'commons.db'))) throw new Error(`backup: no commons.db in ${data} (CX_DATA); on PostgreSQL use pg_dump (README "Operating")`);
  const stage = mkdtempSync(join(dirname(out), '.cx-backup-'));
  try {
    chmodSync(stage, 0o700);
    const names = readdirSync(data).filter((n) => n.endsWith('.db') && statSync(join(data, n)).isFile());
    for (const n of names) await copyDb(join(data, n), join(stage, n));
    for (const n of SECRET_FILES) if (existsSync(join(data, n))) cpSync(join(data, n), join(stage, n));
    // Committed exports only: a draft is a hidden folder renamed into place when complete.
    const exp = join(data, 'export');
    if (existsSync(exp)) for (const d of readdirSync(exp)) if (!d.startsWith('.')) cpSync(join(exp, d), join(stage, 'export', d), { recursive: true });
    const manifest: BackupManifest = {
      format: 1,
      created: new Date().toISOString(),
      files: walk(stage)
        .sort()
        .map((name) => ({ name, bytes: statSync(join(stage, name)).size, sha256: sha256(join(stage, name)) })),
    };
    writeFileSync(join(stage, 'BACKUP.json'), JSON.stringify(manifest, null, 1) + '\n');
    const tmp = join(dirname(out), `.${basename(out)}.${process.pid}`);
    tar(['-c', ...tarArgs(out), '-f', tmp, '-C', stage, '.']);
    chmodSync(tmp, 0o600);
    renameSync(tmp, out);
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Puts a backup into `dataDir`, which must hold no database yet (a fresh directory, or one emptied
 * by the operator: restoring over a live service's files would corrupt them). Checks every file's
 * checksum and each database's integrity before anything is moved into place.
 */
export function restoreDataDir(file: string, dataDir: string): BackupManifest {
  const data = resolve(dataDir);
  const src = resolve(file);
  if (!existsSync(src)) throw new Error(`restore: ${src}: no such file`);
  mkdirSync(data, { recursive: true });
  const present = readdirSync(data).filter((n) => n.endsWith('.db') || SECRET_FILES.includes(n));
  if (present.length)
    throw new Error(`restore: ${data} already holds ${present.join(', ')}; restore into an empty data directory (stop the service, move these aside)`);
  const stage = mkdtempSync(join(data, '.cx-restore-'));
  try {
    tar(['-x', ...tarArgs(src), '-f', src, '-C', stage]);
    if (!existsSync(join(stage, 'BACKUP.json'))) throw new Error('restore: not a backup of npm run backup (no BACKUP.json)');
    const manifest = JSON.parse(readFileSync(join(stage, 'BACKUP.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== 1) throw new Error(`restore: unknown backup format ${String(manifest.format)}`);
    for (const f of manifest.files) {
      const p = join(stage, f.name);
      if (!existsSync(p) || statSync(p).size !== f.bytes || sha256(p) !== f.sha256) throw new Error(`restore: ${f.name} is damaged or missing (checksum)`);
      if (f.name.endsWith('.db')) {
        const db = new Database(p, { fileMustExist: true });
        try {
          const ok = db.pragma('integrity_check', { simple: true });
          if (ok !== 'ok') throw new Error(`restore: ${f.name}: integrity check: ${String(ok)}`);
        } finally {
          db.close();
        }
      }
    }
    // Secrets first (0600), the databases last: a directory with a database has its keys.
    const order = [...manifest.files].sort((a, b) => Number(a.name.endsWith('.db')) - Number(b.name.endsWith('.db')));
    for (const f of order) {
      const to = join(data, f.name);
      mkdirSync(dirname(to), { recursive: true });
      renameSync(join(stage, f.name), to);
      if (SECRET_FILES.includes(f.name)) chmodSync(to, 0o600);
    }
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
