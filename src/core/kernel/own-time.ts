// The time a synchronous call cost the serving thread, as well as Node 20 can tell (it has no
// per-thread clock): the lesser of the wall time and the process's CPU time over the call. Both
// bound the thread's own CPU time from above; the wall time grows when the OS runs another process
// (three test workers on two cores), the CPU time when other threads of this one (workers, GC
// helpers) run meanwhile. Filter budgets charge it; the tests' guards against super-linear work
// bound it.
export function ownMs<T>(fn: () => T): { value: T; ms: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, ms: Math.min(wall, (c.user + c.system) / 1000) };
}
