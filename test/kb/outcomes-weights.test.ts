// The weighting of outcomes (src/core/kb/outcomes.ts) as a function: an identity's weight from its
// level and age, principals joined by network or root (transitively), a principal's weight the
// max of its members' per kind, the dispute threshold and what an entry gives its author.
import { describe, expect, it } from 'vitest';
import { isDisputed, outcomeWeight, repOf, tally, type OutcomeKind, type OutcomeRow } from '../../src/core/kb/outcomes.js';
import { LIMITS, limit } from '../../src/core/kernel/limits.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-28T12:00:00Z');
const L0 = { created: NOW, rep: 0, confirmed: 0, frozen: false };
const L1 = { created: NOW - 2 * DAY, rep: 5, confirmed: 1, frozen: false };
const L3 = { created: NOW - 60 * DAY, rep: 100, confirmed: 20, frozen: false };
let n = 0;
const row = (kind: OutcomeKind, net: string, who: OutcomeRow['who'] = L0, root = `a${n++}`): OutcomeRow => ({ voter: root, kind, net, root, who });

describe('outcome weights', () => {
  it('level weight times an age factor from 0.5 (new) to 1 (outcome.age_d old); frozen or gone weighs nothing', () => {
    expect(outcomeWeight(L0, NOW)).toBe(0.125);
    expect(outcomeWeight(L1, NOW)).toBeCloseTo(1 * (0.5 + 0.5 * (2 / 30)), 10);
    expect(outcomeWeight(L3, NOW)).toBe(3);
    expect(outcomeWeight({ ...L3, frozen: true }, NOW)).toBe(0);
    expect(outcomeWeight(null, NOW)).toBe(0);
    // An old identity that never reached L1 stays at the L0 weight.
    expect(outcomeWeight({ ...L0, created: NOW - 90 * DAY }, NOW)).toBe(0.25);
  });

  it('the constants are in the limits table (published on /limits)', () => {
    const keys = LIMITS.map((l) => l.key);
    for (const k of [
      'outcome.weight.l0',
      'outcome.weight.l1',
      'outcome.weight.l2',
      'outcome.weight.l3',
      'outcome.age_d',
      'outcome.dispute_min',
      'outcome.dispute_ratio',
      'outcome.rep_ok',
      'outcome.rep_fail',
      'outcome.note',
    ])
      expect(keys).toContain(k);
  });
});

describe('principals', () => {
  it('fifty identities of one network are one principal weighing its heaviest member, not the sum', () => {
    const rows = Array.from({ length: 50 }, () => row('worked', '10.1.2.0/24'));
    expect(tally(rows, NOW)).toMatchObject({ worked: 50, w_worked: 0.13, principals: 1 });
    rows.push(row('worked', '10.1.2.0/24', L3));
    expect(tally(rows, NOW)).toMatchObject({ worked: 51, w_worked: 3, principals: 1 });
  });

  it('a shared network or root joins outcomes transitively; an unknown network joins nothing', () => {
    const rows = [row('worked', 'n1', L1, 'r1'), row('worked', 'n2', L1, 'r1'), row('worked', 'n2', L1, 'r2'), row('worked', 'n3', L1, 'r3')];
    expect(tally(rows, NOW).principals).toBe(2);
    expect(tally([row('worked', ''), row('worked', ''), row('worked', '')], NOW).principals).toBe(3);
  });

  it('within a principal each kind weighs its heaviest member: one network cannot cancel more than it weighs', () => {
    const t = tally([row('worked', 'n1', L1), row('did-not-work', 'n1', L0), row('did-not-work', 'n1', L0), row('worked-with-changes', 'n2', L0)], NOW);
    expect(t).toMatchObject({ worked: 1, changes: 1, failed: 2, w_worked: 0.53, w_changes: 0.13, w_failed: 0.13, principals: 2, disputed: false });
  });
});

describe('disputes and reputation', () => {
  it('disputed from outcome.dispute_min weighted did-not-work, when it exceeds outcome.dispute_ratio times worked', () => {
    expect(limit('outcome.dispute_min')).toBe(1);
    expect(isDisputed({ w_worked: 0, w_changes: 0, w_failed: 0.99 })).toBe(false);
    expect(isDisputed({ w_worked: 0, w_changes: 0, w_failed: 1 })).toBe(true);
    expect(isDisputed({ w_worked: 0.5, w_changes: 0.5, w_failed: 1 })).toBe(false);
    expect(isDisputed({ w_worked: 0.5, w_changes: 0.49, w_failed: 1 })).toBe(true);
    // Fifty new identities of one network cannot dispute; two L1 of two networks can.
    expect(
      tally(
        Array.from({ length: 50 }, () => row('did-not-work', 'n9')),
        NOW,
      ).disputed,
    ).toBe(false);
    expect(tally([row('did-not-work', 'n1', L1), row('did-not-work', 'n2', L1)], NOW).disputed).toBe(true);
  });

  it('an entry gives its author rep_ok per weighted worked (changes included) less rep_fail per weighted did-not-work', () => {
    expect(repOf(tally([row('worked', 'n1', L3), row('worked-with-changes', 'n2', L3)], NOW))).toBe(30);
    expect(repOf(tally([row('worked', 'n1', L3), row('did-not-work', 'n2', L3)], NOW))).toBe(9);
    expect(repOf(tally([row('worked', 'n1')], NOW))).toBe(1);
  });
});
