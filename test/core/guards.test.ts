// The declared guards of src/core/platform/guards.ts, through invoke with a real core on a temporary
// SQLite store: the order of the steps, freeze as a function of the input, the maintenance default,
// derived hazard texts, and that a frozen call spends no quota.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { CxError } from '../../src/core/kernel/errors.js';
import { GUARDS } from '../../src/core/platform/guards.js';
import { invoke } from '../../src/core/platform/invoke.js';
import { OPS } from '../../src/compose/registry.js';
import { defineOp, type Operation } from '../../src/core/kernel/types.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cx-guards-'));
const store = openSqliteStore(dir);
const core = buildCore(loadConfig({ CX_DATA: dir }), store, pino({ enabled: false }));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const meta = () => ({ creds: {}, net: `10.9.${n++ % 250}`, reqId: 'r', face: 'rest' as const });
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

function op(extra: Partial<Operation>): Operation {
  return defineOp({
    name: 'test.op',
    title: 't',
    summary: 't',
    input: z.object({ a: z.string().default(''), b: z.string().default(''), publish: z.boolean().default(false) }).strict(),
    output: z.object({ ok: z.literal(true) }),
    auth: 'anon',
    readOnly: false,
    async run() {
      return { ok: true as const };
    },
    text: () => 'ok',
    ...extra,
  } as Operation);
}

async function outcome(o: Operation, raw: unknown, m = meta()): Promise<string> {
  try {
    await invoke(core, o, raw, m);
    return 'ok';
  } catch (err) {
    if (err instanceof CxError) return `${err.status} ${err.code} ${err.detail}`.trim();
    throw err;
  }
}

describe('declared guards', () => {
  it('run in the documented order', () => {
    expect(GUARDS.map((g) => g.name)).toEqual(['auth', 'shed', 'validate', 'freeze', 'quota', 'scrub', 'hazard', 'pow']);
  });

  it('freeze may depend on the validated input (a publish toggle)', async () => {
    const o = op({ freeze: ((i: { publish: boolean }) => (i.publish ? 'cp' : null)) as Operation['freeze'] });
    await core.control.freeze('cp', true, 'admin');
    try {
      expect(await outcome(o, { publish: true })).toBe('503 frozen cp');
      expect(await outcome(o, { publish: false })).toBe('ok');
      // Validation runs first: a bad input is 400 even while frozen.
      expect(await outcome(o, { publish: 'yes' })).toMatch(/^400 bad publish/);
    } finally {
      await core.control.freeze('cp', false, 'admin');
    }
    expect(await outcome(o, { publish: true })).toBe('ok');
  });

  it('`write` stops write kinds only; `all` stops every declared kind; undeclared operations never freeze', async () => {
    const drops = op({ freeze: 'drops' });
    const compute = op({ freeze: 'compute' });
    const none = op({});
    await core.control.freeze('write', true, 'admin');
    try {
      expect(await outcome(drops, {})).toBe('503 frozen drops');
      expect(await outcome(compute, {})).toBe('ok');
      expect(await outcome(none, {})).toBe('ok');
    } finally {
      await core.control.freeze('write', false, 'admin');
    }
    await core.control.freeze('all', true, 'admin');
    try {
      expect(await outcome(compute, {})).toBe('503 frozen compute');
      expect(await outcome(none, {})).toBe('ok');
    } finally {
      await core.control.freeze('all', false, 'admin');
    }
  });

  it('maintenance stops write kinds by default; an operation can opt in or out', async () => {
    const t = core.now();
    await core.control.addMaintenance({ starts: t - 1000, ends: t + 600_000, text: 'test' });
    try {
      expect(await outcome(op({ freeze: 'notes' }), {})).toBe('503 frozen notes');
      expect(await outcome(op({ freeze: 'notes', maintenance: false }), {})).toBe('ok');
      expect(await outcome(op({ freeze: 'compute' }), {})).toBe('ok');
      expect(await outcome(op({ freeze: 'compute', maintenance: true }), {})).toBe('503 frozen compute');
    } finally {
      await core.control.clearMaintenance();
    }
    // A window that has not started yet stops nothing.
    await core.control.addMaintenance({ starts: t + 500_000, ends: t + 600_000, text: 'later' });
    try {
      expect(await outcome(op({ freeze: 'notes' }), {})).toBe('ok');
    } finally {
      await core.control.clearMaintenance();
    }
  });

  it('hazard checks fields and texts derived from the input (a payload split across two fields)', async () => {
    const half = EICAR.length >> 1;
    const split = { a: EICAR.slice(0, half), b: EICAR.slice(half) };
    expect(await outcome(op({ hazard: ['a', 'b'] }), split)).toBe('ok');
    expect(await outcome(op({ hazard: ['a', 'b', ((i: { a: string; b: string }) => i.a + i.b) as (i: unknown) => string] }), split)).toBe('400 hazard malware');
    expect(await outcome(op({ hazard: ['b'] }), { b: EICAR })).toBe('400 hazard malware');
  });

  it('a frozen call spends no quota; scrub is reported before hazard', async () => {
    const o = op({ freeze: 'drops', quota: ['reg'] }); // reg: a small per-network burst
    const m = meta();
    await core.control.freeze('drops', true, 'admin');
    try {
      for (let i = 0; i < 50; i++) expect(await outcome(o, {}, m)).toBe('503 frozen drops');
    } finally {
      await core.control.freeze('drops', false, 'admin');
    }
    expect(await outcome(o, {}, m)).toBe('ok');
    const both = op({ scrub: ['a'], hazard: ['a'] });
    expect(await outcome(both, { a: `AKIAIOSFODNN7EXAMPLE ${EICAR}` })).toMatch(/^400 scrub /);
  });
});

describe('no hand-coded guards in the domains', () => {
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((f) => {
      const p = join(d, f);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  const src = files('src').map((f) => ({ f, text: readFileSync(f, 'utf8') }));

  it('only the guard list checks freezes and hazards (documented exceptions: the drop append, a space entry promoted by id)', () => {
    const hits = src
      .filter(({ f, text }) => !f.startsWith('src/core/kernel/safety/') && /\b(hazardFind|checkFrozen|dropsFrozen)\(/.test(text))
      .map(({ f }) => f);
    // publishLine checks too: the system publishes lines without an op (webhooks, announcements, fn: outputs).
    // space.kb_promote's input is an id: the text going public is read from the store, then checked.
    // src/http/raw.ts is the raw routes' registrar: it applies their declared freeze (not a handler's hand check).
    expect(hits.sort()).toEqual([
      'src/core/drops/drops.ts',
      'src/core/kb/space/ops.ts',
      'src/core/platform/events/topics.ts',
      'src/core/platform/guards.ts',
      'src/http/raw.ts',
    ]);
  });

  it('every quota charge is awaited (the port is asynchronous: a dropped promise would be an unhandled refusal)', () => {
    const bad = src.flatMap(({ f, text }) =>
      [...text.matchAll(/^.*\bquotas\.take\(.*$/gm)].filter((m) => !/\bawait\b|\breturn\b/.test(m[0])).map((m) => `${f}: ${m[0].trim()}`),
    );
    expect(bad).toEqual([]);
  });

  it('every write of an agent declares a freeze kind, or is one that stays open in an incident', () => {
    // Reads that change state (a drop read burns it, a challenge is issued, a mail is marked read),
    // undoing and deleting one's own data, draining one's own work queue (wq.claim/ack), and abuse
    // reports stay open while writes are frozen; so do an owner's removal of a member and purge of a
    // space's private entries (they take access and data away), and space.manage, whose act's own
    // declaration applies when it calls it.
    const open = new Set([
      'space.remove',
      'space.purge',
      'space.manage',
      'id.challenge',
      'drop.get',
      'drop.delete',
      'task.release',
      'task.cancel',
      'space.leave',
      'note.delete',
      'cp.unpublish',
      'cp.delete',
      'anchor.unclaim',
      'cache.delete',
      'mail.read',
      'mail.delete',
      'mail.report',
      'sub.cancel',
      'wq.claim',
      'wq.ack',
    ]);
    const operator = new Set(['admin', 'ops', 'poll', 'check']);
    const undecided = OPS.filter((o) => !o.readOnly && !operator.has(o.auth) && !o.freeze && !open.has(o.name)).map((o) => o.name);
    expect(undecided).toEqual([]);
  });

  it('every operation that declares a freeze kind writes', () => {
    const readOnlyFrozen = OPS.filter((o) => o.freeze && o.readOnly).map((o) => o.name);
    expect(readOnlyFrozen).toEqual([]);
  });
});
