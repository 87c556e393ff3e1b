// The workspace repositories, gathered for the store (one line in index.ts).
import type { Store } from '../../compose/store.js';
import type { Db } from './db.js';
import { sqliteAnchors } from './anchors.js';
import { sqliteBlobs } from './blobs.js';
import { sqliteCache } from './cache.js';
import { sqliteCheckpoints } from './checkpoints.js';
import { sqliteMail } from './mail.js';
import { sqliteNotes } from './notes.js';

export function sqliteWorkspace(db: Db): Pick<Store, 'notes' | 'checkpoints' | 'anchors' | 'cache' | 'blobs' | 'mail'> {
  return {
    notes: sqliteNotes(db),
    checkpoints: sqliteCheckpoints(db),
    anchors: sqliteAnchors(db),
    cache: sqliteCache(db),
    blobs: sqliteBlobs(db),
    mail: sqliteMail(db),
  };
}

// isUnique lives in db.ts (the repositories this file gathers import it there: no import circle).
export { isUnique } from './db.js';
