// Sample data: the curated fixes in seed/*.jsonl (file name order), loaded once into an empty KB so a new
// user's first POST /e with a common error gets a real answer.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Core } from '../ops/types.js';
import { newId } from '../identity/tokens.js';
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
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
});

/** Entries without a date of their own: the day the first seed files were written. */
const UNDATED = Date.parse('2026-11-20T00:00:00Z');

export function seedRows(core: Pick<Core, 'now' | 'random'>, files = seedFiles()): NewEntry[] {
  const lines = files.flatMap((file) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()));
  const now = core.now();
  // Entries of one day are a millisecond apart in file order: the order stays stable, the day true.
  const ofDay = new Map<string, number>();
  return lines.map((line) => {
    const r = Row.parse(JSON.parse(line));
    const k = ofDay.get(r.date ?? '') ?? 0;
    ofDay.set(r.date ?? '', k + 1);
    const { sig, h, ch } = errsig(r.error);
    const libs = r.libs.map((s) => parseLib(s)).filter((l) => l !== null);
    return {
      id: newId('k', core.random, 8),
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
      // The entry's own date (noon UTC), never later than now.
      created: Math.min(now, (r.date ? Date.parse(`${r.date}T12:00:00Z`) : UNDATED) + k),
    };
  });
}

/** Loads the sample data when the KB is empty; returns how many entries were added. */
export async function loadSeedIfEmpty(core: Core): Promise<number> {
  if ((await core.store.kb.count()) > 0) return 0;
  return core.store.kb.insertMany(seedRows(core));
}
