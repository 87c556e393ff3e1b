// Sample data: the curated fixes in seed/*.jsonl (file name order), loaded once into an empty KB so a new
// user's first POST /e with a common error gets a real answer.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Core } from '../kernel/types.js';
import { newId } from '../platform/identity/tokens.js';
import { classOf } from './classify.js';
import { ERRSIG_VERSION, errsig } from './errsig/errsig.js';
import { libsInText, parseLib } from './libs.js';
import type { NewEntry } from './ports.js';
import { ECOS } from './ops.js';

const SEED_DIR = fileURLToPath(new URL('./seed/', import.meta.url));

/** The sample data files, in load order (fixes.jsonl first, then the others by name). */
export function seedFiles(dir = SEED_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort((a, b) => (a === 'fixes.jsonl' ? -1 : b === 'fixes.jsonl' ? 1 : a.localeCompare(b)))
    .map((f) => join(dir, f));
}

/** The operator's own identity for seed entries (not a registered root). */
export const SYSTEM_AUTHOR = 'asystem';

const Row = z.object({
  error: z.string().min(1),
  fix: z.string().min(1),
  libs: z.array(z.string()),
  eco: z.enum(ECOS),
  tags: z.array(z.string()),
  title: z.string().min(1),
  /** The day the entry was written, or of the release it concerns (YYYY-MM-DD). */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

/** Entries without a date of their own: the day the first seed files were written. */
const UNDATED = Date.parse('2026-11-20T00:00:00Z');

type Signed = Omit<NewEntry, 'id' | 'created'> & { date: string | undefined };

/**
 * The parsed and signed lines of the files, kept per process: parsing and signing ~6,000 entries
 * took ~0.5 s, paid again by every server a test process starts. Keyed by the files' names and
 * contents' sizes and modification times, so an edited file is read again.
 */
const signedMemo = new Map<string, Signed[]>();
function signedLines(files: string[]): Signed[] {
  const key = files
    .map((f) => {
      const st = statSync(f);
      return `${f}:${st.size}:${st.mtimeMs}`;
    })
    .join('|');
  let rows = signedMemo.get(key);
  if (!rows) {
    const lines = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim()),
    );
    rows = lines.map((line) => {
      const r = Row.parse(JSON.parse(line));
      const { sig, h, ch } = errsig(r.error);
      const libs = r.libs.map((x) => parseLib(x)).filter((l) => l !== null);
      return {
        sig,
        h,
        ch,
        sigv: ERRSIG_VERSION,
        title: r.title,
        error: r.error,
        fix: r.fix,
        eco: r.eco,
        cls: classOf(sig),
        tags: r.tags,
        libs: libs.length ? libs : libsInText(r.error),
        author: SYSTEM_AUTHOR,
        date: r.date,
      };
    });
    signedMemo.clear();
    signedMemo.set(key, rows);
  }
  return rows;
}

export function seedRows(core: Pick<Core, 'now' | 'random'>, files = seedFiles()): NewEntry[] {
  const now = core.now();
  // Entries of one day are a millisecond apart in file order: the order stays stable, the day true.
  const ofDay = new Map<string, number>();
  return signedLines(files).map(({ date, ...r }) => {
    const k = ofDay.get(date ?? '') ?? 0;
    ofDay.set(date ?? '', k + 1);
    // The entry's own date (noon UTC), never later than now; a fresh id per store.
    return {
      ...r,
      libs: r.libs.map((l) => ({ ...l })),
      tags: [...r.tags],
      id: newId('k', core.random, 8),
      created: Math.min(now, (date ? Date.parse(`${date}T12:00:00Z`) : UNDATED) + k),
    };
  });
}

/** Loads the sample data when the KB is empty; returns how many entries were added. */
export async function loadSeedIfEmpty(core: Core): Promise<number> {
  if ((await core.store.kb.count()) > 0) return 0;
  return core.store.kb.insertMany(seedRows(core));
}
