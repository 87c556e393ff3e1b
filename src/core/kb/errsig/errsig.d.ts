// Types for errsig.js (the standalone ErrSig v3 module served at /errsig.js). tsconfig has no
// allowJs, so TypeScript code imports './errsig/errsig.js' and gets these declarations.

/** Version of the signature algorithm; a change of any sig for any input bumps it. */
export declare const ERRSIG_VERSION: 3;

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

/** ErrSig v3 of raw error output (any language, any tool). Pure, synchronous, never throws. */
export declare function errsig(text: string): ErrSig;

/** A candidate: the signature of one line that states an error, and that line (left-trimmed, after step 1). */
export interface ErrSigCandidate extends ErrSig {
  line: string;
}

/**
 * The signatures of the distinct lines of `text` that state an error, best first, at most `max`
 * (default 3; below 1 gives none). The first equals `errsig(text)`; a one-line input has one.
 */
export declare function candidates(text: string, max?: number): ErrSigCandidate[];

/** The coarse signature of a fine one. */
export declare function coarse(sig: string): string;

/** 64 lowercase hex of SHA-256 of the UTF-8 bytes of `s` (synchronous; Node's native hash when available). */
export declare function sha256Hex(s: string): string;

/** The same in pure JavaScript (what runs where Node's crypto is not available). */
export declare function sha256Js(s: string): string;

/** The regex sources, before the `{PC}` substitution; errsig.py holds the same texts. */
export declare const ERRSIG_PATTERNS: Readonly<Record<string, string>>;
