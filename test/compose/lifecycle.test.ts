// The start/stop loop of src/compose/lifecycle.ts: a module's declared subscriptions listen before
// its start and stop listening before its stop, modules stop newest first, and a failing handler
// is one warning named for its module (the event bus and the log are recorded here; the swarm's
// real deliveries through its `ps:` subscription are in test/swarm).
import { describe, expect, it } from 'vitest';
import { startModules } from '../../src/compose/lifecycle.js';
import type { BusEvent, TopicSelector } from '../../src/core/kernel/bus.js';
import type { Module } from '../../src/core/kernel/module.js';
import type { Core } from '../../src/core/kernel/types.js';

function fakeCore() {
  const said: string[] = [];
  const fns: { sel: TopicSelector; fn: (e: BusEvent) => void }[] = [];
  const core = {
    store: {
      events: {
        on(sel: TopicSelector, fn: (e: BusEvent) => void) {
          said.push(`on ${JSON.stringify(sel)}`);
          const h = { sel, fn };
          fns.push(h);
          return () => {
            said.push(`off ${JSON.stringify(sel)}`);
            fns.splice(fns.indexOf(h), 1);
          };
        },
      },
    },
    log: { warn: (o: { topic: string; seq: number }, msg: string) => said.push(`warn ${o.topic}#${o.seq} ${msg}`) },
  } as unknown as Core;
  const emit = (e: BusEvent) => {
    for (const h of [...fns]) if ('topic' in h.sel ? h.sel.topic === e.topic : e.topic.startsWith(h.sel.prefix)) h.fn(e);
  };
  return { core, said, emit };
}

describe('startModules', () => {
  it('wires each module subscription before its start, unwires it before its stop, newest module first', async () => {
    const { core, said, emit } = fakeCore();
    const mods: Module[] = [
      { name: 'a', ops: [], start: () => (said.push('start a'), () => void said.push('stop a')) },
      {
        name: 'b',
        ops: [],
        subscribes: [{ topics: { prefix: 'ps:' }, on: async (_c, e) => void said.push(`b got ${e.topic}#${e.id}`), failed: 'nothing queued' }],
        start: () => (said.push('start b'), async () => void said.push('stop b')),
      },
      { name: 'c', ops: [], subscribes: [{ topics: { topic: 'inbox.x' }, on: async () => Promise.reject(new Error('no')), failed: 'inbox not copied' }] },
    ];
    const stop = startModules(core, mods);
    emit({ topic: 'ps:t', id: 3, time: 0, payload: {} });
    emit({ topic: 'inbox.x', id: 7, time: 0, payload: {} });
    emit({ topic: 'other', id: 1, time: 0, payload: {} });
    await new Promise((r) => setTimeout(r, 0));
    await stop();
    emit({ topic: 'ps:t', id: 4, time: 0, payload: {} });
    await new Promise((r) => setTimeout(r, 0));
    expect(said).toEqual([
      'start a',
      'on {"prefix":"ps:"}',
      'start b',
      'on {"topic":"inbox.x"}',
      'b got ps:t#3',
      'warn inbox.x#7 c: inbox not copied',
      'off {"topic":"inbox.x"}',
      'off {"prefix":"ps:"}',
      'stop b',
      'stop a',
    ]);
  });
});
