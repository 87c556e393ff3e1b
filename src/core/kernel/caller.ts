// Who calls: the kernel's own words for an identity, its token class and an operator class, so the
// operation types need nothing from the platform (src/core/platform/identity keeps the repositories).

export interface Identity {
  id: string;
  name: string | null;
  created: number; // ms since epoch
  rep: number;
  confirmed: number;
  frozen: boolean;
}

export type TokenClass = 'user' | 'url';

/** The operator token classes (src/config.ts reads their tokens). */
export type OperatorClass = 'admin' | 'ops' | 'poll' | 'check';
