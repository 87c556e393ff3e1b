// Generic deliveries: `<event> text="…"` from a JSON body's `text` (or `summary`) field, or from a
// plain-text body; anything else is named by its size only.
import { at, quote, str, tok } from './summary.js';

export function genericLine(event: string, p: unknown, body: Buffer): string {
  const t = str(at(p, 'text')) || str(at(p, 'summary'));
  if (t) return `${tok(event)} text=${quote(t)}`;
  if (p === undefined) {
    const text = body.toString('utf8');
    if (text.trim() && !text.includes('\uFFFD')) return `${tok(event)} text=${quote(text.trim())}`;
  }
  return `${tok(event)} bytes=${body.length}`;
}
