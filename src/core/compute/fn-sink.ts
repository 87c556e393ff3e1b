// The runner of swarm `fn:<svc>@<ver>` sinks: each line's text is the input of one call of that
// exact version, for the subscriber. Swarm charged swarm.fn_credits for the line already, so the
// call itself is recorded with price 0. Registered per core at the compute module's start with setFnRunner (the platform's fn: contract).
import { CxError } from '../kernel/errors.js';
import type { Core } from '../kernel/types.js';
import type { Line } from '../platform/events/topics.js';
import { setFnRunner } from '../platform/fn-sinks.js';
import { callVersion } from './calls.js';
import type { SvcVersion } from './ports.js';

/** The version an fn: sink may run: KATs passed and at least one ok report, like a served one. */
async function runnable(core: Core, svc: string, ver: string): Promise<SvcVersion | string> {
  if (!/^[1-9][0-9]{0,8}$/.test(ver)) return `fn:${svc}@${ver}: ver is the integer version of a service`;
  const v = await core.store.services.version(svc, Number(ver));
  if (!v) return `fn:${svc}@${ver}: no such service version`;
  if (v.state !== 'ok' || (await core.store.services.okCount(svc, v.ver)) === 0)
    return `fn:${svc}@${ver}: version is ${v.state === 'ok' ? 'not reported ok yet' : v.state}`;
  return v;
}

export async function runFnSink(core: Core, svc: string, ver: string, line: Line, owner: string): Promise<string | null> {
  const v = await runnable(core, svc, ver);
  // A version withdrawn after the subscription was made: the line is dropped like a failed run.
  if (typeof v === 'string') throw new CxError('compute', `bad ${v}`);
  const out = await callVersion(core, owner, v, Buffer.from(line.text, 'utf8'), 0);
  const text = out.output?.trim() ?? '';
  return text === '' ? null : text;
}

export function startFnSinks(core: Core): void {
  setFnRunner(core, runFnSink, async (c, svc, ver) => {
    const v = await runnable(c, svc, ver);
    return typeof v === 'string' ? v : null;
  });
}
