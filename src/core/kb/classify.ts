// The error class of a signature, for the /err/{class} hubs: the most specific stable name in it.
const RULES: RegExp[] = [
  /\berror\[(E\d{4})\]/, // rustc
  /\b(TS\d{4,5})\b/, // tsc
  /\b([A-Z][A-Za-z0-9]*(?:Error|Exception|Warning|Failure))\b/, // Python, Java, JS, .NET, Ruby
  /\b(E[A-Z][A-Z_]{2,})\b/, // npm / Node codes: ERESOLVE, EADDRINUSE, ERR_REQUIRE_ESM
  /\b(ERR_[A-Z_]+)\b/,
  /\b(SQLSTATE\s*\w+|ORA-\d{5}|\d{4}\s*\(\w+\))/, // SQL states
  /\b(panic|segmentation fault|command not found|permission denied|undefined reference)\b/i,
];

/** `[A-Za-z0-9_.-]{1,64}` or '' when nothing stands out. */
export function classOf(sig: string): string {
  for (const re of RULES) {
    const m = re.exec(sig);
    if (m)
      return m[1]!
        .toLowerCase()
        .replace(/[^a-z0-9_.-]+/g, '-')
        .slice(0, 64);
  }
  return '';
}

export const CLASS_RE = /^[a-z0-9_.-]{1,64}$/;
