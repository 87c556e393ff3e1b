// Port the profile reads for its `saved` aggregate.

/** What an identity keeps saved in its workspace: its live checkpoints plus its live cached results. */
export interface SavedCounter {
  savedBy(id: string, now: number): Promise<number>;
}
