// Types for errsig-v2.js: ErrSig v2, kept for clients that pinned it (served at /errsig-v2.js with
// its vectors /errsig-v2.tsv) and to compare throughput. The served module is errsig.js (v3).

/** Version of the signature algorithm; a change of any sig for any input bumps it. */
export declare const ERRSIG_VERSION: 2;

export interface ErrSig {
  /** The fine signature `<tag>:<normalized decisive text>`, at most 200 code points, no tab or newline. */
  sig: string;
  /** 64 lowercase hex: SHA-256 of the UTF-8 bytes of `sig`. */
  h: string;
  /** The coarse signature: tag, error code or type, and the template with every name removed. */
  coarse: string;
  /** 64 lowercase hex: SHA-256 of the UTF-8 bytes of `coarse`. */
  ch: string;
}

/** ErrSig v2 of raw error output (any language, any tool). Pure, synchronous, never throws. */
export declare function errsig(text: string): ErrSig;

/** The coarse signature of a fine one. */
export declare function coarse(sig: string): string;

/** 64 lowercase hex of SHA-256 of the UTF-8 bytes of `s` (synchronous; Node's native hash when available). */
export declare function sha256Hex(s: string): string;

/** The same in pure JavaScript (what runs where Node's crypto is not available). */
export declare function sha256Js(s: string): string;

/** The regex sources, before the `{PC}` substitution; errsig.py holds the same texts. */
export declare const ERRSIG_PATTERNS: Readonly<Record<string, string>>;
