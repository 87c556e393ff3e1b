// The labelled set of POST /e (test/kb/eval/*.jsonl, the main part, and test/kb/eval/holdout/*.jsonl,
// the held-out part): read and parsed here for scripts/eval-kb.ts and test/kb/eval.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EVAL_DIR = fileURLToPath(new URL('../test/kb/eval/', import.meta.url));
export const ECOS = ['pypi', 'npm', 'go', 'crates', 'gem', 'maven', 'nuget', 'apt', 'docker', 'api'] as const;
export const KINDS = ['whole', 'oneline', 'none'] as const;
export type SetName = 'main' | 'holdout';

export interface EvalItem {
  id: string;
  kind: (typeof KINDS)[number];
  eco: (typeof ECOS)[number];
  /** The exact title of the seed entry that is the right answer; null when the KB holds none. */
  expect: string | null;
  /** The text sent to POST /e. */
  output: string;
  /** Where the item came from: set, file and line (for messages). */
  set: SetName;
  file: string;
  line: number;
}

/** The .jsonl files of one part, by name. */
export function evalFiles(set: SetName, dir = EVAL_DIR): string[] {
  const d = set === 'main' ? dir : join(dir, 'holdout');
  return readdirSync(d)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(d, f));
}

/** Every item of a part; lines are parsed as JSON, the fields are checked by the test, not here. */
export function loadEvalSet(set: SetName, dir = EVAL_DIR): EvalItem[] {
  const out: EvalItem[] = [];
  for (const file of evalFiles(set, dir)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((l, i) => {
      if (!l.trim()) return;
      const o = JSON.parse(l) as Omit<EvalItem, 'set' | 'file' | 'line'>;
      out.push({ ...o, set, file, line: i + 1 });
    });
  }
  return out;
}
