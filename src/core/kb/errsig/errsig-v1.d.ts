// Types for errsig-v1.js: ErrSig v1, kept to re-sign entries written under it and to compare
// throughput (bench/errsig.ts). The served module is errsig.js (v2).

/** Version of the signature algorithm; a change of any sig for any input bumps it. */
export declare const ERRSIG_VERSION: 1;

export interface ErrSig {
  /** `<tag>:<normalized decisive text>`, at most 200 code points, no tab or newline. */
  sig: string;
  /** 64 lowercase hex: SHA-256 of the UTF-8 bytes of `sig`. */
  h: string;
}

/** ErrSig v1 of raw error output (any language, any tool). Pure, synchronous, never throws. */
export declare function errsig(text: string): ErrSig;

/** 64 lowercase hex of SHA-256 of the UTF-8 bytes of `s` (pure JS, synchronous). */
export declare function sha256Hex(s: string): string;

/** The regex sources, before the `{PC}` substitution; errsig.py holds the same texts. */
export declare const ERRSIG_PATTERNS: Readonly<Record<string, string>>;
