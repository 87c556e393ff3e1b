// Async port of private notes; src/store/sqlite/notes.ts implements it. Rows hold ciphertext only.

export interface NoteRow {
  /** Row sequence: the order of list cursors. */
  rid: number;
  id: string;
  owner: string;
  nonce: Buffer;
  /** AES-256-GCM ciphertext||tag of {"t": title, "b": body}. */
  ct: Buffer;
  /** Body size in UTF-8 bytes. */
  size: number;
  created: number;
  updated: number;
}

export type NewNote = Omit<NoteRow, 'rid'>;

export interface NoteRepo {
  /** Inserts unless the owner already holds `max` notes; 'taken' when the id exists (draw again). */
  insert(row: NewNote, max: number): Promise<NoteRow | 'full' | 'taken'>;
  /** The owner's note; null for unknown and foreign ids alike. */
  get(id: string, owner: string): Promise<NoteRow | null>;
  update(id: string, owner: string, patch: Pick<NoteRow, 'nonce' | 'ct' | 'size' | 'updated'>): Promise<boolean>;
  /** Newest first, rows with rid below `before` when given. */
  list(owner: string, before: number | null, n: number): Promise<NoteRow[]>;
  count(owner: string): Promise<number>;
  remove(id: string, owner: string): Promise<boolean>;
}
