// Async ports of the identity domain; src/store implements them.

export interface Identity {
  id: string;
  name: string | null;
  created: number; // ms since epoch
  rep: number;
  confirmed: number;
  frozen: boolean;
}

export type TokenClass = 'user' | 'url';

export interface IdentityRepo {
  /** Creates the identity and its first user token (hash only) in one transaction. */
  create(rec: Identity, tokenHash: string): Promise<void>;
  byId(id: string): Promise<Identity | null>;
  /** Resolves a token hash of the given class to its (unfrozen or frozen) identity. */
  byToken(tokenHash: string, cls: TokenClass): Promise<Identity | null>;
  addToken(id: string, tokenHash: string, cls: TokenClass, created: number): Promise<void>;
  count(): Promise<number>;
}

export interface SpentProofRepo {
  /** Records a spent proof; false when it was already spent (replay). */
  spend(challenge: string, exp: number): Promise<boolean>;
  purgeExpired(now: number): Promise<number>;
}
