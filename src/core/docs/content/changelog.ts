// /changelog: releases, newest first, read from the project's own CHANGELOG.md (the repository's
// root; scripts/build.mjs copies it beside the compiled code). Rendered as markdown
// (/changelog.md), text (/changelog.txt), JSON and the feed /f/log.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ChangelogEntry {
  /** A version (1.0.0), or after 1.0.0 the date of what reached main that day. */
  version: string;
  /** YYYY-MM-DD */
  date: string;
  title: string;
  /** One line each; code in backticks (kept in markdown, stripped in text). */
  items: string[];
}

const HEADING = /^## (?:(\S+) - )?(\d{4}-\d{2}-\d{2}) - (.+)$/;

/**
 * Entries of a CHANGELOG.md: `## <version> - <date> - <title>` headings (`## <date> - <title>` for
 * an unversioned day: its version is the date), each followed by `- ` items.
 */
export function parseChangelog(md: string): ChangelogEntry[] {
  const out: ChangelogEntry[] = [];
  for (const line of md.split(/\r?\n/)) {
    const h = HEADING.exec(line);
    if (h) out.push({ version: h[1] ?? h[2]!, date: h[2]!, title: h[3]!.trim(), items: [] });
    else if (line.startsWith('- ') && out.length) out.at(-1)!.items.push(line.slice(2).trim());
  }
  return out;
}

const FILE = fileURLToPath(new URL('../../../../CHANGELOG.md', import.meta.url));

export const CHANGELOG: ReadonlyArray<ChangelogEntry> = parseChangelog(readFileSync(FILE, 'utf8'));

export function changelogMd(): string {
  const out = ['# Changelog', '', 'Newest first. Text: `/changelog.txt`, JSON: `/changelog.json`, feed: `/f/log.atom`.', ''];
  for (const e of CHANGELOG) {
    out.push(`## ${e.version === e.date ? '' : `${e.version} - `}${e.date} - ${e.title}`, '');
    for (const i of e.items) out.push(`- ${i}`);
    out.push('');
  }
  return out.join('\n');
}

export function changelogTxt(): string {
  const out = ['# changelog, newest first: <date> <version> <item>'];
  for (const e of CHANGELOG) for (const i of e.items) out.push(`${e.date} ${e.version} ${i.replace(/`/g, '')}`);
  return out.join('\n') + '\n';
}
