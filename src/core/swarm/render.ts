// Lines are untrusted data. In every text form our own fields come first on the line and the
// published text last, after ` | `: a line can never start with `ok`, `err` or `next:` (ours). In
// JSON the text is a string field. Control characters never get in (publishLine flattens them).
import { iso } from '../kernel/text.js';
import type { Line } from './lines.js';

export { iso };

/** One line as a text row: `<seq> by=<by> hop=<h> <time> | <text>`. */
export const lineRow = (l: Pick<Line, 'seq' | 'by' | 'hop' | 'time' | 'text'>): string => `${l.seq} by=${l.by} hop=${l.hop} ${iso(l.time)} | ${l.text}`;

/** A line as JSON data. */
export const lineJson = (l: Line) => ({ topic: l.topic, seq: l.seq, by: l.by, hop: l.hop, at: iso(l.time), text: l.text });
