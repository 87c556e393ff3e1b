// CPU time of a synchronous call, for the guards against super-linear (ReDoS-like) work on hostile
// input. Wall time is not what they mean: with three vitest workers on two cores, a 50 ms scrub read
// 537 ms on the clock (2026-11-29); the process's CPU time counts only the work done.
export function cpuMs<T>(fn: () => T): { ms: number; value: T } {
  const c0 = process.cpuUsage();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, value };
}
