// Sink and fn: output target forms of SubCreate (spec 2.1), parsed once here.
import { CxError } from '../kernel/errors.js';

export type Sink = { kind: 'wq'; name: string } | { kind: 'mb' } | { kind: 'kv'; ns: string; k: string } | { kind: 'fn'; svc: string; ver: string };

export type Target = { kind: 'topic'; topic: string } | { kind: 'mail' } | { kind: 'kv'; ns: string; k: string };

export const WQ_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const KV_NS = /^[a-z0-9][a-z0-9_-]{0,31}$/;
export const KV_K = /^[A-Za-z0-9._-]{1,64}$/;
const SVC = /^([a-z0-9][a-z0-9-]{0,39})@([0-9A-Za-z][0-9A-Za-z.+-]{0,31})$/;

export const SINK_FORMS = 'wq:<name>, mb:me, kv:<ns>/<k> or fn:<svc>@<ver>';

function kvOf(s: string): { ns: string; k: string } | null {
  const cut = s.indexOf('/');
  if (cut < 0) return null;
  const ns = s.slice(0, cut);
  const k = s.slice(cut + 1);
  return KV_NS.test(ns) && KV_K.test(k) ? { ns, k } : null;
}

export function parseSink(s: string): Sink {
  if (s === 'mb:me') return { kind: 'mb' };
  if (s.startsWith('wq:') && WQ_NAME.test(s.slice(3))) return { kind: 'wq', name: s.slice(3) };
  if (s.startsWith('kv:')) {
    const kv = kvOf(s.slice(3));
    if (kv) return { kind: 'kv', ...kv };
  }
  if (s.startsWith('fn:')) {
    const m = SVC.exec(s.slice(3));
    if (m) return { kind: 'fn', svc: m[1]!, ver: m[2]! };
  }
  throw new CxError('bad', `sink: want ${SINK_FORMS} (name, ns: a-z 0-9 _ -, at most 32; k: at most 64 of A-Z a-z 0-9 . _ -)`);
}

/** `to` of an fn: sink; the topic part is checked by the caller (parseTopic). */
export function parseTarget(s: string): Target {
  if (s === 'mail:me') return { kind: 'mail' };
  if (s.startsWith('topic:') && s.length > 6) return { kind: 'topic', topic: s.slice(6) };
  if (s.startsWith('kv:')) {
    const kv = kvOf(s.slice(3));
    if (kv) return { kind: 'kv', ...kv };
  }
  throw new CxError('bad', 'to: want topic:<name>, mail:me or kv:<ns>/<k>');
}

/** The job queue holding an identity's work-queue items. */
export const wqQueue = (owner: string, name: string) => `wq:${owner}:${name}`;
