// Readiness beside liveness: whether this process should get new requests. Liveness (/healthz)
// says the process runs; readiness (/readyz) is false while it starts (the store opening, its
// migrations, start-up work), while it drains after SIGTERM, and while the database does not
// answer. A balancer routes on readiness; a supervisor restarts on liveness.

export type Phase = 'starting' | 'ready' | 'draining';

export class Readiness {
  phase: Phase = 'starting';
  /** What the process is doing while starting (e.g. `migrations`), for the one-line answer. */
  step = 'starting';

  ready(): void {
    if (this.phase === 'starting') this.phase = 'ready';
  }

  drain(): void {
    this.phase = 'draining';
  }
}
