import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { seedFiles } from '../../src/core/kb/seed.js';
import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { scrubFind } from '../../src/core/kernel/safety/scrub.js';

// Validates the KB sample data loaded on first start (src/core/kb/seed/*.jsonl).
// The file is hand-curated, so every rule here is a guard against editing mistakes.

const ECOS = ['pypi', 'npm', 'go', 'crates', 'gem', 'maven', 'nuget', 'apt', 'docker', 'api'] as const;

// name@version, or name@* when the error does not depend on the version. Scoped npm names keep their @.
const LIB_RE = /^[A-Za-z0-9@._/-]+@(\*|[0-9A-Za-z.+-]+)$/;
const TAG_RE = /^[a-z0-9][a-z0-9.+#-]{0,31}$/;

/** No leading/trailing whitespace: the text is shown and hashed as is. */
const trimmed = (s: string): boolean => s === s.trim();
/** Raw tool output may start indented (pip, jest, docker), but never with a blank line or trailing space. */
const tidyOutput = (s: string): boolean => s.trim() !== '' && !/^[ \t]*\n/.test(s) && s === s.trimEnd();
const lineCount = (s: string): number => s.split('\n').length;

const Entry = z.strictObject({
  title: z
    .string()
    .min(8)
    .max(100)
    .refine(trimmed, 'title has surrounding whitespace')
    .refine((s) => !s.includes('\n'), 'title must be one line'),
  eco: z.enum(ECOS),
  libs: z.array(z.string().max(120).regex(LIB_RE, 'lib must be name@version or name@*')).max(10),
  tags: z
    .array(z.string().regex(TAG_RE, 'tag must be lowercase [a-z0-9.+#-]'))
    .min(1)
    .max(5)
    .refine((t) => new Set(t).size === t.length, 'duplicate tag'),
  error: z
    .string()
    .min(10)
    .max(4000)
    .refine(tidyOutput, 'error starts with a blank line or ends with whitespace')
    .refine((s) => lineCount(s) >= 1 && lineCount(s) <= 40, 'error must be 1-40 lines'),
  fix: z.string().min(40).max(1200).refine(trimmed, 'fix has surrounding whitespace'),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
    .refine((d) => !Number.isNaN(Date.parse(d)) && d >= '2010-01-01' && d <= '2026-12-31', 'date out of range')
    .optional(),
});
type Entry = z.infer<typeof Entry>;

const FILES = seedFiles();
const raws = FILES.map((f) => ({ name: basename(f), raw: readFileSync(f, 'utf8') }));
/** Every line of every file, labelled `<file>:<line>` in problems. */
const lines = raws.flatMap(({ name, raw }) => raw.split('\n').map((text, i) => ({ text, at: `${name}:${i + 1}` })));

/** Parses every non-empty line; a broken line becomes a labelled failure instead of aborting the file. */
function parseAll(): { entries: Entry[]; problems: string[] } {
  const entries: Entry[] = [];
  const problems: string[] = [];
  lines.forEach(({ text: line, at }) => {
    if (line === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      problems.push(`${at}: invalid JSON (${(e as Error).message})`);
      return;
    }
    const r = Entry.safeParse(json);
    if (!r.success) {
      const msg = r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ');
      problems.push(`${at}: ${msg}`);
      return;
    }
    entries.push(r.data);
  });
  return { entries, problems };
}

const { entries, problems } = parseAll();

describe('KB seed files', () => {
  it('are one JSON object per line, newline-terminated, no blank lines', () => {
    expect(FILES[0]).toMatch(/fixes\.jsonl$/);
    for (const { name, raw } of raws) {
      expect(raw.endsWith('\n'), name).toBe(true);
      expect(
        raw
          .split('\n')
          .slice(0, -1)
          .filter((l) => l.trim() === ''),
        name,
      ).toEqual([]);
    }
  });

  it('every line matches the entry schema', () => {
    expect(problems).toEqual([]);
  });

  it('has at least 220 entries', () => {
    expect(entries.length).toBeGreaterThanOrEqual(220);
  });

  it('has no duplicate error texts or titles', () => {
    const dups = (key: (e: Entry) => string): string[] => {
      const seen = new Set<string>();
      const out: string[] = [];
      for (const e of entries) {
        const k = key(e);
        if (seen.has(k)) out.push(k.slice(0, 80));
        seen.add(k);
      }
      return out;
    };
    expect(dups((e) => e.error)).toEqual([]);
    // Also catch near-copies that differ only in whitespace or case.
    expect(dups((e) => e.error.replace(/\s+/g, ' ').toLowerCase())).toEqual([]);
    expect(dups((e) => e.title.toLowerCase())).toEqual([]);
  });

  it('covers at least 8 ecosystems', () => {
    const perEco = new Map<string, number>();
    for (const e of entries) perEco.set(e.eco, (perEco.get(e.eco) ?? 0) + 1);
    expect(perEco.size).toBeGreaterThanOrEqual(8);
    // The two biggest ecosystems must not crowd out the rest.
    for (const eco of ['pypi', 'npm', 'go', 'crates', 'maven', 'docker', 'gem', 'nuget']) {
      expect(perEco.get(eco) ?? 0, `entries for ${eco}`).toBeGreaterThanOrEqual(5);
    }
  });

  it('contains no secrets in any error or fix (scrubber finds nothing)', () => {
    const leaks: string[] = [];
    entries.forEach((e, i) => {
      for (const field of ['error', 'fix', 'title'] as const) {
        const hit = scrubFind(e[field]);
        if (hit) leaks.push(`entry ${i + 1} ${field}: ${hit.kind} at ${hit.offset}`);
      }
    });
    expect(leaks).toEqual([]);
  });

  it('every fix names a concrete remedy (a command, a config or code change)', () => {
    const remedy =
      /`[^`]+`|\b(run|install|set|add|remove|upgrade|downgrade|use|change|replace|delete|restart|export|pin|rename|update|enable|disable|configure|call|pass|import|check|create|move|increase|raise|wrap|declare|define|give|point|open|grant|free|kill|stop|clear|reinstall|switch|mount|allow|drop|edit|make|convert|await|return|provide|start|rebuild|regenerate|commit|fetch|pull|push|merge|specify|load|register|annotate|cast|initiali[sz]e|close|split|lower|bump|log in)\b/i;
    const vague = entries.filter((e) => !remedy.test(e.fix)).map((e) => e.title);
    expect(vague).toEqual([]);
  });

  it('libraries name a version (or * when the error does not depend on one)', () => {
    const bad = entries.flatMap((e) =>
      e.libs.filter((l) => !/^(\*|v?\d[0-9A-Za-z.+-]*)$/.test(l.slice(l.lastIndexOf('@') + 1))).map((l) => `${e.title}: ${l}`),
    );
    expect(bad).toEqual([]);
  });

  it('error texts carry no private names: e-mail addresses only on example domains', () => {
    const mails = entries.flatMap((e) =>
      (e.error.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [])
        .filter(
          (m) =>
            /\.[a-z]{2,}$/i.test(m) &&
            !/@(?:[\w-]+\.)*(example\.(?:com|org|net)|localhost|users\.noreply\.github\.com)$/i.test(m) &&
            !/^(git|[\w.-]+)@(github\.com|gitlab\.com|bitbucket\.org)$/.test(m) &&
            !/@\d/.test(m) &&
            !/^(?:[\w-]+@my-project\.iam|123456789012-compute@developer)\.gserviceaccount\.com$/.test(m) &&
            !/@[\w.-]*\.(?:jsonl?|ts|js|py|txt|md|lock|toml|yaml|yml|zip|tar|gz|tgz)$/i.test(m),
        )
        .map((m) => `${e.title}: ${m}`),
    );
    expect(mails).toEqual([]);
  });

  it('the schema rejects malformed entries', () => {
    const good = entries[0]!;
    expect(Entry.safeParse(good).success).toBe(true);
    expect(Entry.safeParse({ ...good, eco: 'cargo' }).success).toBe(false);
    expect(Entry.safeParse({ ...good, libs: ['numpy'] }).success).toBe(false);
    expect(Entry.safeParse({ ...good, libs: ['@types/node@20.1.0', 'left-pad@*'] }).success).toBe(true);
    expect(Entry.safeParse({ ...good, tags: ['Python'] }).success).toBe(false);
    expect(Entry.safeParse({ ...good, tags: [] }).success).toBe(false);
    expect(Entry.safeParse({ ...good, error: Array.from({ length: 41 }, (_, i) => `line ${i}`).join('\n') }).success).toBe(false);
    expect(Entry.safeParse({ ...good, title: 'x'.repeat(101) }).success).toBe(false);
    expect(Entry.safeParse({ ...good, extra: 1 }).success).toBe(false);
  });
});
