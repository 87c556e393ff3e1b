// Leadership port (issue 23): work that must run on one process at a time among the replicas of a
// shared store (retention sweeps) asks for a named leadership first. PostgreSQL: a session-level
// advisory lock held on a connection of its own, so a process that dies (or loses that connection)
// lets go at once and another's next try takes over. SQLite: one process owns the file, it always leads.

export interface LeaderRepo {
  /**
   * True while this process holds `name`: takes it when free, keeps it when already held (checking
   * that the connection holding it is still alive). False while another process holds it.
   */
  hold(name: string): Promise<boolean>;
  /** Lets `name` go (shutdown, or a process that stops that work). */
  release(name: string): Promise<void>;
}
