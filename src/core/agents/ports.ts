// Async ports of hosted agents: published cards and inbound tasks (the owner's inbox).

export interface AgentCardRec {
  /** The owning identity's id; one card per identity. */
  id: string;
  name: string;
  description: string;
  tags: string[];
  inbound: boolean;
  created: number;
  updated: number;
}

/** Who may be listed: the owner's identity must meet these thresholds (a trust level). */
export interface LevelFloor {
  rep: number;
  confirmed: number;
  /** The identity must have been created at or before this instant (ms). */
  createdBefore: number;
}

export type InboundState = 'open' | 'completed' | 'rejected' | 'canceled';

export interface InboundRec {
  /** The A2A task id the sender holds. */
  task: string;
  agent: string;
  sender: string;
  text: string;
  state: InboundState;
  answer: string | null;
  created: number;
  updated: number;
  /** False until the sender's task carries the answer (a crash in between is repaired at start). */
  synced: boolean;
}

export interface AgentRepo {
  upsertCard(rec: AgentCardRec): Promise<void>;
  card(id: string): Promise<AgentCardRec | null>;
  /** Cards with inbound open whose owner meets `floor`, newest update first. */
  directory(q: { tag?: string; offset: number; limit: number; floor: LevelFloor }): Promise<{ rows: AgentCardRec[]; total: number }>;

  addInbound(rec: InboundRec): Promise<void>;
  inbound(task: string): Promise<InboundRec | null>;
  /** Appends a follow-up message to an open inbound task. */
  appendInbound(task: string, text: string, now: number): Promise<boolean>;
  inbox(agent: string, q: { open: boolean; before?: number; limit: number }): Promise<InboundRec[]>;
  countOpen(agent: string): Promise<number>;
  /** Moves an open task to a final state; false when it was not open (already answered or canceled). */
  settle(task: string, state: Exclude<InboundState, 'open'>, answer: string | null, now: number): Promise<boolean>;
  markSynced(task: string): Promise<void>;
  /** Open tasks (to watch again after a restart) and answered but unsynced ones (to repair). */
  pending(): Promise<InboundRec[]>;
}
