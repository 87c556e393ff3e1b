// The measured shed level's rules (src/http/pressure.ts), sample by sample: each pressure's
// thresholds, a saturated loop escalating one level at a time, a busy loop holding the level, and
// the hysteresis (shed.rise samples to rise, shed.calm samples per step down). The classes a level
// sheds (src/core/platform/control/shed.ts) in order.
import { describe, expect, it } from 'vitest';
import { SHED_CLASSES, shedClassOf, sheds } from '../../src/core/platform/control/shed.js';
import type { RawRoute } from '../../src/http/raw.js';
import { REST_RAW_ROUTES } from '../../src/rest/raw-routes.js';
import { limit } from '../../src/core/kernel/limits.js';
import { opByName } from '../../src/compose/registry.js';
import { levelOfSample, ShedLevel, type PressureSample } from '../../src/http/pressure.js';

const calm: PressureSample = { delayMs: 5, elu: 0.3, heap: 0.2, db: 0.05 };

describe('levelOfSample', () => {
  it('maps each pressure to a level by its thresholds and names the pressures at the top level', () => {
    expect(levelOfSample(calm)).toEqual({ level: 0, reasons: [] });
    expect(levelOfSample({ ...calm, delayMs: limit('shed.delay.l1') })).toEqual({ level: 1, reasons: ['event_loop_delay'] });
    expect(levelOfSample({ ...calm, delayMs: limit('shed.delay.l3') + 1 }).level).toBe(3);
    expect(levelOfSample({ ...calm, heap: limit('shed.heap.l2') })).toEqual({ level: 2, reasons: ['heap'] });
    expect(levelOfSample({ ...calm, db: limit('shed.db.l3'), heap: limit('shed.heap.l3') })).toEqual({ level: 3, reasons: ['heap', 'db_busy'] });
  });

  it('a saturated loop asks for one level more than the current one (at most 3); a busy one holds it', () => {
    const sat = { ...calm, elu: limit('shed.elu.rise') };
    expect(levelOfSample(sat, 0)).toEqual({ level: 1, reasons: ['event_loop_busy'] });
    expect(levelOfSample(sat, 2).level).toBe(3);
    expect(levelOfSample(sat, 3).level).toBe(3);
    expect(levelOfSample({ ...calm, elu: limit('shed.elu.hold') }, 2).level).toBe(2);
    expect(levelOfSample({ ...calm, elu: limit('shed.elu.hold') - 0.01 }, 2).level).toBe(0);
  });
});

describe('ShedLevel hysteresis', () => {
  it('rises after shed.rise samples at or above a level (to the lowest of them), falls one step per shed.calm samples below', () => {
    const l = new ShedLevel();
    const at = (level: number) => ({ level, reasons: level ? ['x'] : [] });
    for (let i = 1; i < limit('shed.rise'); i++) {
      l.push(at(3));
      expect(l.level).toBe(0);
    }
    l.push(at(2));
    expect(l.level).toBe(2);
    // A single calm sample, then pressure again: no fall.
    l.push(at(0));
    l.push(at(2));
    expect(l.level).toBe(2);
    for (let i = 1; i < limit('shed.calm'); i++) l.push(at(0));
    expect(l.level).toBe(2);
    l.push(at(0));
    expect(l.level).toBe(1);
    for (let i = 0; i < limit('shed.calm'); i++) l.push(at(0));
    expect(l).toMatchObject({ level: 0, reasons: [] });
  });

  it('a saturated loop escalates step by step while it stays saturated', () => {
    const l = new ShedLevel();
    const sat = { ...calm, elu: 1 };
    const seen: number[] = [];
    for (let i = 0; i < 4 * limit('shed.rise'); i++) {
      l.push(levelOfSample(sat, l.level));
      seen.push(l.level);
    }
    expect([...new Set(seen)]).toEqual([0, 1, 2, 3]);
  });
});

describe('shed classes', () => {
  it('are shed in order: bulk from 1, heavy from 2, anonymous writes from 3; core and never not at all', () => {
    const order = (Object.keys(SHED_CLASSES) as Array<keyof typeof SHED_CLASSES>).map((c) => [0, 1, 2, 3].filter((lv) => sheds(lv, c)));
    expect(order).toEqual([[1, 2, 3], [2, 3], [3], [], []]);
  });

  it('operations and routes get their class from one place', () => {
    const cls = (n: string) => shedClassOf(opByName(n)!);
    expect([
      cls('kb.search'),
      cls('inj.map'),
      cls('kb.brief'),
      cls('id.register'),
      cls('drop.put'),
      cls('note.create'),
      cls('sys.health'),
      cls('sys.limits'),
      cls('admin.freeze'),
    ]).toEqual(['bulk', 'bulk', 'heavy', 'anon_write', 'anon_write', 'core', 'never', 'never', 'never']);
    // Raw routes declare theirs in their face's table (src/http/raw.ts); the core holds no paths.
    const raw = (path: string) => REST_RAW_ROUTES.flatMap((g) => Object.values<RawRoute>(g.routes)).find((r) => r.path === path)?.shed;
    expect([raw('/f/*'), raw('/git/kb.tar.gz'), raw('/export/:file'), raw('/kb/:id')]).toEqual(['bulk', 'bulk', 'bulk', 'core']);
  });
});
