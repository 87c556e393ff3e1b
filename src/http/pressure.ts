// The measured shed level of this process (per process by nature: it measures this process). Every
// second it samples four pressures, maps each to a level 0-3 by the thresholds of /limits (shed.*),
// and moves the measured level with hysteresis: up to a level after shed.rise consecutive samples at
// or above it, down by one after shed.calm consecutive samples below it. The effective level is the
// larger of this and the operator's (src/core/platform/control/control.ts); src/core/platform/control/shed.ts decides
// what a level refuses.
//   event_loop_delay  p99 of the event-loop delay over the second (perf_hooks histogram, 10 ms resolution)
//   event_loop_busy   event-loop utilization over the second: saturated, one level more than now; busy, hold
//   heap              V8 heap used over the heap size limit
//   db_busy           share of the second the serving thread spent inside database calls (Store.busyMs)
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { limit } from '../core/kernel/limits.js';
import type { Core } from '../core/kernel/types.js';

export interface PressureSample {
  delayMs: number;
  elu: number;
  heap: number;
  db: number;
}

const level3 = (v: number, key: 'shed.delay' | 'shed.heap' | 'shed.db') =>
  v >= limit(`${key}.l3`) ? 3 : v >= limit(`${key}.l2`) ? 2 : v >= limit(`${key}.l1`) ? 1 : 0;

/**
 * The level each pressure asks for, and the pressures at the highest of them. `current`: the measured
 * level now. A saturated loop (utilization at shed.elu.rise) asks for one level more than the current
 * one: the work shed so far was not enough, so the next class goes; a loop still busy (shed.elu.hold)
 * asks to keep the level, so shedding that relieves the loop does not switch itself off at once.
 */
export function levelOfSample(s: PressureSample, current = 0): { level: number; reasons: string[] } {
  const busy = s.elu >= limit('shed.elu.rise') ? Math.min(limit('shed.max_level'), current + 1) : s.elu >= limit('shed.elu.hold') ? current : 0;
  const asks: Array<[string, number]> = [
    ['event_loop_delay', level3(s.delayMs, 'shed.delay')],
    ['event_loop_busy', busy],
    ['heap', level3(s.heap, 'shed.heap')],
    ['db_busy', level3(s.db, 'shed.db')],
  ];
  const level = Math.max(...asks.map(([, l]) => l));
  return { level, reasons: level ? asks.filter(([, l]) => l === level).map(([r]) => r) : [] };
}

/** Hysteresis over samples: rises after shed.rise samples at or above a level, falls one step after shed.calm below. */
export class ShedLevel {
  level = 0;
  reasons: string[] = [];
  private above: number[] = [];
  private calm = 0;

  push(raw: { level: number; reasons: string[] }): void {
    if (raw.level > this.level) {
      this.above.push(raw.level);
      this.calm = 0;
      if (this.above.length >= limit('shed.rise')) {
        this.level = Math.min(...this.above.slice(-limit('shed.rise')));
        this.reasons = raw.reasons;
        this.above = [];
      }
      return;
    }
    this.above = [];
    if (raw.level < this.level) {
      if (++this.calm >= limit('shed.calm')) {
        this.level--;
        this.calm = 0;
        if (!this.level) this.reasons = [];
      }
    } else {
      this.calm = 0;
      if (raw.level) this.reasons = raw.reasons;
    }
  }
}

/**
 * Starts the meter: every second a sample, the level handed to core.control.measure. `enabled` false
 * (CX_SHED=0, the benchmark's comparison) keeps the measured level at 0; the operator's level still
 * applies. Samples count from `settleMs` on, so start-up work is not taken for overload.
 */
export function startPressure(
  core: Core,
  opts: { enabled: boolean; settleMs?: number; onSample?: (s: PressureSample) => void },
): { stop(): void; last(): PressureSample | null } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  let at = performance.now();
  let dbAt = core.store.busyMs();
  const settle = at + (opts.settleMs ?? 2000);
  const lvl = new ShedLevel();
  let last: PressureSample | null = null;
  const t = setInterval(() => {
    const now = performance.now();
    const e = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    const db = core.store.busyMs();
    const heap = getHeapStatistics();
    const s: PressureSample = {
      delayMs: h.count ? h.percentile(99) / 1e6 : 0,
      elu: e.utilization,
      heap: heap.used_heap_size / heap.heap_size_limit,
      db: now > at ? (db - dbAt) / (now - at) : 0,
    };
    h.reset();
    at = now;
    dbAt = db;
    last = s;
    opts.onSample?.(s);
    if (!opts.enabled || now < settle) return;
    lvl.push(levelOfSample(s, lvl.level));
    core.control.measure(lvl.level, lvl.reasons);
  }, 1000);
  t.unref();
  return {
    stop() {
      clearInterval(t);
      h.disable();
    },
    last: () => last,
  };
}

/**
 * Test hook: blocks this process's event loop for `ms` every `everyMs` until `forMs` has passed
 * (tests run the server in their own process). Returns a function that stops it early.
 */
export function stallLoop(ms: number, everyMs: number, forMs: number): () => void {
  const end = performance.now() + forMs;
  const t = setInterval(() => {
    const now = performance.now();
    if (now >= end) return clearInterval(t);
    const until = now + ms;
    while (performance.now() < until) {
      /* blocked on purpose */
    }
  }, everyMs);
  return () => clearInterval(t);
}
