// Library names (and versions where the path shows them) found in raw error output, and the
// `name@version` form agents send.
import type { Lib } from './ports.js';

const MAX = 20;

const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => Lib]> = [
  // Python: .../site-packages/<name>/ or <name>-<ver>.dist-info
  [/(?:site|dist)-packages[\\/]([A-Za-z0-9_][A-Za-z0-9_.-]*?)-(\d[\w.]*)\.dist-info/g, (m) => ({ name: norm(m[1]!), ver: m[2]! })],
  [/(?:site|dist)-packages[\\/]([A-Za-z_][A-Za-z0-9_]*)[\\/]/g, (m) => ({ name: norm(m[1]!), ver: '*' })],
  // Node: node_modules/<@scope/name|name>/
  [/node_modules[\\/]((?:@[a-z0-9][\w.-]*[\\/])?[a-z0-9][\w.-]*)[\\/]/gi, (m) => ({ name: m[1]!.replace(/\\/g, '/').toLowerCase(), ver: '*' })],
  // Rust: .cargo/registry/src/<index>/<name>-<ver>/
  [/\.cargo[\\/]registry[\\/]src[\\/][^\\/\s]+[\\/]([A-Za-z0-9_-]+?)-(\d+\.\d+\.\d+[\w.+-]*)[\\/]/g, (m) => ({ name: m[1]!, ver: m[2]! })],
  // Go: pkg/mod/<module path>@<ver>/
  [/pkg[\\/]mod[\\/]([\w.-]+(?:[\\/][\w.-]+)+)@(v[\w.+-]+)/g, (m) => ({ name: m[1]!.replace(/\\/g, '/'), ver: m[2]! })],
  // Maven: .m2/repository/<group path>/<artifact>/<ver>/
  [/\.m2[\\/]repository[\\/](?:[\w.-]+[\\/])+?([\w.-]+)[\\/](\d[\w.-]*)[\\/][\w.-]+\.jar/g, (m) => ({ name: m[1]!, ver: m[2]! })],
  // Ruby gems: gems/<name>-<ver>/
  [/gems[\\/]([a-z][\w-]*?)-(\d+\.\d+[\w.]*)[\\/]/g, (m) => ({ name: m[1]!, ver: m[2]! })],
];

/** PyPI names compare case-insensitively with - and _ equivalent. */
function norm(n: string): string {
  return n.toLowerCase().replace(/_/g, '-');
}

export function libsInText(text: string): Lib[] {
  const seen = new Map<string, Lib>();
  for (const [re, make] of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m && seen.size < MAX; m = re.exec(text)) {
      const lib = make(m);
      const prev = seen.get(lib.name);
      if (!prev || (prev.ver === '*' && lib.ver !== '*')) seen.set(lib.name, lib);
    }
  }
  return [...seen.values()];
}

const LIB_RE = /^((?:@[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w./-]*)@(\*|[0-9A-Za-z][0-9A-Za-z.+-]*)$/;

/** Parses `name@ver` (ver may be `*`); null when malformed. */
export function parseLib(s: string): Lib | null {
  const m = LIB_RE.exec(s.trim());
  return m ? { name: m[1]!, ver: m[2]! } : null;
}

export const libStr = (l: Lib) => `${l.name}@${l.ver}`;
