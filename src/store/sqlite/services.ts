// SQLite implementation of the ServiceRepo port (src/core/compute/ports.ts): names, versions with
// their KAT state, L2 ok reports and call records (migration 016).
import type { CallRecord, ServiceRepo, SvcName, SvcOk, SvcVersion } from '../../core/compute/ports.js';
import { LIMIT, type Db } from './db.js';

interface VersionRow extends Omit<SvcVersion, 'manifest'> {
  manifest: string;
}
const version = (r: VersionRow | undefined): SvcVersion | null => (r ? { ...r, manifest: JSON.parse(r.manifest) } : null);

export function sqliteServices(db: Db): ServiceRepo {
  const selName = db.prepare('SELECT name, owner, stable, created FROM svc_names WHERE name = ?');
  const insName = db.prepare('INSERT INTO svc_names (name, owner, stable, created) VALUES (?, ?, NULL, ?)');
  const selVer = db.prepare('SELECT * FROM svc_versions WHERE name = ? AND ver = ?');
  const insVer = db.prepare(
    "INSERT INTO svc_versions (name, ver, wasm, manifest, publisher, state, kats, log, created, checked) VALUES (@name, @ver, @wasm, @manifest, @publisher, 'pending', @kats, NULL, @created, NULL)",
  );
  const stableSet = db.prepare('UPDATE svc_names SET stable = ? WHERE name = ?');
  const vers = db.prepare('SELECT * FROM svc_versions WHERE name = ? ORDER BY ver DESC ' + LIMIT);
  const names = db.prepare('SELECT name, owner, stable, created FROM svc_names WHERE name > ? ORDER BY name ' + LIMIT);
  const settle = db.prepare("UPDATE svc_versions SET state = ?, log = ?, checked = ? WHERE name = ? AND ver = ? AND state = 'pending'");
  const insOk = db.prepare('INSERT OR IGNORE INTO svc_oks (name, ver, by, pub, sig, note, at) VALUES (@name, @ver, @by, @pub, @sig, @note, @at)');
  const oks = db.prepare('SELECT name, ver, by, pub, sig, note, at FROM svc_oks WHERE name = ? AND ver = ? ORDER BY at, by ' + LIMIT);
  const okCount = db.prepare('SELECT count(*) AS n FROM svc_oks WHERE name = ? AND ver = ?');
  const insCall = db.prepare(
    `INSERT INTO svc_calls (id, name, ver, caller, in_hash, status, code, detail, output, out_hash, ms, charged, donor, created)
     VALUES (@id, @name, @ver, @caller, @in_hash, @status, @code, @detail, @output, @out_hash, @ms, @charged, @donor, @created)`,
  );
  const selCall = db.prepare('SELECT * FROM svc_calls WHERE id = ?');
  const purge = db.prepare('DELETE FROM svc_calls WHERE created < ?');

  const publish = db.transaction((v: Omit<SvcVersion, 'state' | 'log' | 'checked'>, owner: string, stable: 'always' | 'first' | 'never') => {
    let n = selName.get(v.name) as SvcName | undefined;
    if (n && n.owner !== owner) return 'taken' as const;
    if (!n) {
      insName.run(v.name, owner, v.created);
      n = { name: v.name, owner, stable: null, created: v.created };
    }
    if (selVer.get(v.name, v.ver)) return 'dup' as const;
    insVer.run({ ...v, manifest: JSON.stringify(v.manifest) });
    if (stable === 'always' || (stable === 'first' && n.stable === null)) stableSet.run(v.ver, v.name);
    return 'ok' as const;
  });

  return {
    async publish(v, owner, stable) {
      return publish(v, owner, stable);
    },
    async name(name) {
      return (selName.get(name) as SvcName | undefined) ?? null;
    },
    async version(name, ver) {
      return version(selVer.get(name, ver) as VersionRow | undefined);
    },
    async versions(name, n) {
      return (vers.all(name, n) as VersionRow[]).map((r) => version(r)!);
    },
    async list(after, n) {
      return names.all(after, n) as SvcName[];
    },
    async settle(name, ver, state, log, at) {
      return settle.run(state, log, at, name, ver).changes === 1;
    },
    async setStable(name, ver) {
      if (!selVer.get(name, ver)) return false;
      stableSet.run(ver, name);
      return true;
    },
    async addOk(ok: SvcOk) {
      return insOk.run(ok).changes === 1;
    },
    async oks(name, ver, n) {
      return oks.all(name, ver, n) as SvcOk[];
    },
    async okCount(name, ver) {
      return (okCount.get(name, ver) as { n: number }).n;
    },
    async putCall(c: CallRecord) {
      insCall.run(c);
    },
    async call(id) {
      return (selCall.get(id) as CallRecord | undefined) ?? null;
    },
    async purgeCalls(before) {
      return purge.run(before).changes;
    },
  };
}
