// The strict filter for text written by strangers that the service republishes without an author
// to answer for it (imported search demand): any finding drops the text, nothing is redacted.
import { hazardFind } from './hazards.js';
import { injectionFind } from './injection.js';
import { scrubFind } from './scrub.js';

/** Why a text fails the strict filter, or null when it passes. */
export function strictFinding(text: string): string | null {
  if (/[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(text)) return 'control';
  if (/[^\s@]+@[^\s@]+\.[a-z]{2,}/i.test(text)) return 'email';
  if (/\d(?:[\s().-]?\d){6,}/.test(text)) return 'digits';
  const s = scrubFind(text);
  if (s) return `scrub ${s.kind}`;
  const i = injectionFind(text);
  if (i) return `injection ${i.term}`;
  const h = hazardFind(text);
  if (h) return `hazard ${h.family}`;
  return null;
}
