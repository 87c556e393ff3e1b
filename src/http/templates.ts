// Discovery documents of every face come from the templates in cards/, filled with the base URL.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../cards/', import.meta.url));

/** A template from cards/ with `{{VAR}}` placeholders filled. */
export function fill(file: string, vars: Record<string, string>): Record<string, unknown> {
  const raw = readFileSync(dir + file, 'utf8');
  // Values are JSON-escaped so a base URL can never break the document.
  const text = raw.replace(/\{\{([A-Z_]+)\}\}/g, (_, k: string) => JSON.stringify(vars[k] ?? '').slice(1, -1));
  return JSON.parse(text) as Record<string, unknown>;
}
