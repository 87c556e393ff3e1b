// `err bad <path>: <message>` from the first zod issue (the validate guard and the faces share it).
import type { z } from 'zod';

export function zodDetail(err: z.ZodError): string {
  const i = err.issues[0];
  if (!i) return 'invalid input';
  const path = i.path.length ? i.path.join('.') : 'input';
  if (i.code === 'unrecognized_keys') return `${path}: unknown field ${i.keys.join(',')}`;
  if (i.code === 'invalid_type' && i.input === undefined) return `${path}: required`;
  return `${path}: ${i.message}`;
}
