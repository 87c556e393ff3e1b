// ErrSig (v3): both reference implementations against the published vectors (fine and coarse
// signatures), as commands, against each other (pattern table, random and adversarial inputs), and
// the bounds the spec promises. v1 stays available (errsig-v1.js) and still gives its own vectors
// (v2 likewise: errsig.v3.test.ts, with v3's own cases).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRSIG_PATTERNS, ERRSIG_VERSION, errsig, sha256Hex, sha256Js } from '../../src/core/kb/errsig/errsig.js';
import * as v1 from '../../src/core/kb/errsig/errsig-v1.js';
import { ownMs } from '../../src/core/kernel/own-time.js';

const dir = fileURLToPath(new URL('../../src/core/kb/errsig/', import.meta.url));
const JS = dir + 'errsig.js';
const PY = dir + 'errsig.py';

// One python3 process for a whole batch: inputs as JSON on stdin, [sig, h] pairs as JSON on stdout.
const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('errsig', sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
if sys.argv[2] == 'patterns':
    sys.stdout.write(json.dumps({'version': m.ERRSIG_VERSION, 'patterns': m.PATTERNS}))
else:
    sys.stdout.write(json.dumps([list(m.errsig_levels(t)) for t in json.loads(sys.stdin.buffer.read().decode('utf-8'))]))
`;
/** [sig, h, coarse, ch] of each input, by errsig.py. */
function py(inputs: string[]): [string, string, string, string][] {
  const r = spawnSync('python3', ['-B', '-c', DRIVER, PY, 'errsig'], { input: JSON.stringify(inputs), maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error('python3 failed: ' + r.stderr.toString());
  return JSON.parse(r.stdout.toString());
}

// errsig.tsv: `#` comments, the header line, then `input<TAB>sig<TAB>sha256` with escapes.
const unescapeVector = (s: string) =>
  s.replace(/\\(\\|n|r|t|e|x[0-9a-fA-F]{2})/g, (_m, e: string) =>
    e === '\\' ? '\\' : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e === 'e' ? '\x1b' : String.fromCharCode(parseInt(e.slice(1), 16)),
  );
const tsvLines = readFileSync(dir + 'errsig.tsv', 'utf8').split('\n');
const header = tsvLines.indexOf('input\tsig\tsha256\tcoarse');
const vectors = tsvLines
  .slice(header + 1)
  .filter((l) => l !== '')
  .map((l) => {
    const cols = l.split('\t');
    if (cols.length !== 4) throw new Error('bad vector line: ' + l.slice(0, 80));
    return { input: unescapeVector(cols[0]), sig: unescapeVector(cols[1]), h: cols[2], coarse: unescapeVector(cols[3]) };
  });
const full = (v: { sig: string; h: string; coarse: string }) => ({
  sig: v.sig,
  h: v.h,
  coarse: v.coarse,
  ch: createHash('sha256').update(v.coarse, 'utf8').digest('hex'),
});

describe('errsig.tsv vectors', () => {
  it('has a header after the comments and at least 200 vectors covering the required ecosystems', () => {
    expect(header).toBeGreaterThan(0);
    expect(tsvLines.slice(0, header).every((l) => l.startsWith('#'))).toBe(true);
    expect(vectors.length).toBeGreaterThanOrEqual(200);
    expect(tsvLines[0]).toContain(`(${vectors.length})`);
    const tags = new Set(vectors.map((v) => v.sig.slice(0, v.sig.indexOf(':'))));
    for (const t of ['py', 'node', 'ts', 'rust', 'go', 'java', 'c', 'npm', 'pip', 'sh', 'sql', 'git', 'k8s', 'other']) expect(tags).toContain(t);
    // v3: every private-name placeholder appears in some vector's signature.
    for (const p of [
      '<repo>',
      '<image>',
      '<module>',
      '<host>',
      '<user>',
      '<email>',
      '<container>',
      '<network>',
      '<volume>',
      '<ref>',
      '<url>',
      '<ip>',
      '<uuid>',
      '<hex>',
      '<path>',
    ])
      expect(
        vectors.some((v) => v.sig.includes(p)),
        p,
      ).toBe(true);
    const has = (re: RegExp) => vectors.some((v) => re.test(v.input));
    expect(has(/\x1b\[/)).toBe(true); // ANSI colour
    expect(has(/[A-Z]:\\Users\\/)).toBe(true); // Windows path
    expect(has(/\d{4}-\d\d-\d\dT\d\d:\d\d/)).toBe(true); // timestamp
    expect(has(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)).toBe(true); // UUID
    expect(has(/0x[0-9a-f]{6,}/)).toBe(true); // address
    expect(has(/sqlite3|no such table|UNIQUE constraint/)).toBe(true);
    expect(has(/ERROR: {2}/) && has(/ERROR 1045/)).toBe(true); // PostgreSQL and MySQL
    expect(vectors.some((v) => v.input === '')).toBe(true);
  });

  it('the JavaScript implementation gives every sig and sha256', () => {
    for (const v of vectors) expect(errsig(v.input), JSON.stringify(v.input.slice(0, 80))).toEqual(full(v));
  });

  it('the Python implementation gives every sig and sha256', () => {
    const out = py(vectors.map((v) => v.input));
    vectors.forEach((v, i) => expect(out[i], JSON.stringify(v.input.slice(0, 80))).toEqual(Object.values(full(v))));
  });

  it('h is the SHA-256 of the UTF-8 of sig (checked against node:crypto)', () => {
    for (const v of vectors) expect(v.h).toBe(createHash('sha256').update(v.sig, 'utf8').digest('hex'));
    for (const s of ['', 'a', 'é😀\u2028', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'y'.repeat(1000), 'lone \ud800 and \udc00'])
      for (const f of [sha256Hex, sha256Js]) expect(f(s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
  });
});

describe('as commands reading stdin', () => {
  const input = vectors.find((v) => v.sig.startsWith('rust:panicked'))!;
  for (const [name, cmd] of [
    ['node errsig.js', ['node', JS]],
    ['python3 errsig.py', ['python3', PY]],
  ] as const) {
    it(`${name} prints <sig>\\t<h>`, () => {
      const r = spawnSync(cmd[0], [cmd[1]], { input: Buffer.from(input.input, 'utf8') });
      expect(r.status).toBe(0);
      expect(r.stdout.toString('utf8')).toBe(`${input.sig}\t${input.h}\n`);
    });
  }

  it('both commands agree on undecodable bytes, a BOM and CRLF', () => {
    const raw = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Traceback (most recent call last):\r\n  File "/a.py", line 1\r\nKeyError: \''),
      Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from("'\r\n"),
    ]);
    const a = spawnSync('node', [JS], { input: raw });
    const b = spawnSync('python3', [PY], { input: raw });
    expect(a.stdout.toString('utf8')).toMatch(/^py:KeyError: \S*\t[0-9a-f]{64}\n$/);
    expect(b.stdout.toString('utf8')).toBe(a.stdout.toString('utf8'));
  });
});

describe('one algorithm in two languages', () => {
  it('errsig.py holds the same pattern table and version as errsig.js', () => {
    const r = spawnSync('python3', ['-B', '-c', DRIVER, PY, 'patterns']);
    expect(r.status).toBe(0);
    const p = JSON.parse(r.stdout.toString());
    expect(p.version).toBe(ERRSIG_VERSION);
    expect(p.patterns).toEqual({ ...ERRSIG_PATTERNS });
    expect(Object.keys(ERRSIG_PATTERNS).length).toBeGreaterThan(100);
  });

  it('agrees on 1500 seeded random inputs built from error fragments, Unicode and control characters', () => {
    let seed = 20240601;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const frags = [
      'Traceback (most recent call last):',
      '  File "/home/u/x.py", line 3, in <module>',
      "ModuleNotFoundError: No module named 'x'",
      "TypeError: Cannot read properties of undefined (reading 'map')",
      '    at f (/a/b.js:1:2)',
      'Node.js v20.1.0',
      "thread 'main' panicked at src/main.rs:2:5:",
      'panic: runtime error: index out of range [3] with length 2',
      'goroutine 1 [running]:',
      'error[E0382]: borrow of moved value: `v`',
      "src/a.ts(1,2): error TS2304: Cannot find name 'foo'.",
      "main.c:3:5: error: 'x' undeclared",
      'npm ERR! code E404',
      "npm error 404  'left-padd@*' is not in this registry.",
      'ERROR: Could not find a version that satisfies the requirement t==9.9',
      'bash: foo: command not found',
      'ERROR:  relation "users" does not exist',
      "ERROR 1045 (28000): Access denied for user 'root'@'localhost'",
      '\x1b[31merror\x1b[0m',
      '\x1b]8;;http://x\x07link\x1b]8;;\x07',
      'C:\\Users\\Bob\\app\\main.py',
      '2024-01-15T10:23:45.123Z',
      '550e8400-e29b-41d4-a716-446655440000',
      '0x7ffd1234',
      'deadbeef12',
      'http://x.com/a?b=1',
      'a@b.co',
      "'quoted value here'",
      '"x"',
      "`y'",
      '\u2018z\u2019',
      '\u201cw\u201d',
      '1.2.3',
      'v20.1',
      '100ms',
      '5 MiB',
      '::1',
      '[::1]:5432',
      '10.0.0.1:80',
      '😀',
      '\ud83d',
      '\ude00',
      'é',
      '\u2028',
      '\u00a0',
      '\ue123',
      '\t',
      '\r',
      '\n',
      ' ',
      ':',
      "'",
      '"',
      '`',
      '/',
      '\\',
      '.',
      '=',
      '@',
      '\x00',
      '\x7f',
      '\u0085',
      'node_modules/.pnpm/a@1.0.0/node_modules/a/index.js',
      '/usr/lib/python3/dist-packages/y/__init__.py',
      'package.json',
      'x.h',
      'Caused by: java.lang.IllegalStateException: boom',
      '\tat com.x.Y.z(Y.java:12)',
      'Exception in thread "main" java.lang.NullPointerException',
      'E       AssertionError: assert 1 == 2',
      'FAILED t.py::t - ValueError: x',
      'go: module foo: not found',
      '\u00d7 Building wheel',
      'Collecting x',
      'exit code 137',
      '[Errno 13]',
      '404 Not Found',
      'SQLSTATE[23000]',
      'table t already exists',
      'no such table: t',
      'ENOTFOUND api.x.com',
      '\u276F src/a.ts:1:2',
      '[cause]: Error: connect ECONNREFUSED 127.0.0.1:5432',
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x'",
      'x'.repeat(300),
      'é'.repeat(150),
      '😀'.repeat(120),
      "'" + '😀'.repeat(150) + "'",
      // v2 rules and names
      'ERROR in ./src/a.js 1:0-9',
      "Module not found: Error: Can't resolve './x' in '/a/b'",
      'panic: boom',
      'exit status 2',
      'fatal error: concurrent map writes',
      'fatal error: stdio.h: No such file or directory',
      "error: 'x' undeclared (first use in this function)",
      'Error: Could not find or load main class a.B',
      'Error: Unable to access jarfile x.jar',
      'error[E0502]: cannot borrow `v` as mutable',
      'error[E0432]: unresolved import `serde`',
      './m.go:1:2: undefined: x.Y',
      './m.go:1:2: declared and not used: q',
      'x declared but not used',
      'cannot use p (variable of type int) as string value in',
      's.C undefined (type *S has no field or method C)',
      'Cannot invoke "String.length()" because "<local1>" is null',
      'java.lang.NullPointerException: ',
      "NameError: name 'x' is not defined. Did you mean: 'y'?",
      "local variable 'c' referenced before assignment",
      'Did you mean print(...)?',
      "'app'@'%'",
      'Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/x"',
      'dial unix %2Fvar%2Frun%2Fx.sock',
      'Got permission denied while trying to connect to the Docker daemon socket',
      'App.java:3: error: incompatible types: String cannot be converted to int',
      'variable t might not have been initialized',
      'e: file:///a/B.kt:1:2 Unresolved reference: q',
      "src/a.ts:1:2 - error TS2322: Type 'a' is not assignable to type 'b'.",
      'peer vite@"^4" from @vitejs/plugin-react@4.0.0',
      'torch==1.13.1',
      'command not found: jq',
    ];
    const inputs: string[] = [];
    for (let k = 0; k < 1500; k++) {
      let s = '';
      const n = 1 + Math.floor(rnd() * 12);
      for (let i = 0; i < n; i++) {
        s += frags[Math.floor(rnd() * frags.length)];
        const r = rnd();
        s += r < 0.4 ? '\n' : r < 0.6 ? ' ' : r < 0.7 ? "'" : r < 0.8 ? ': ' : '';
      }
      inputs.push(s);
    }
    const out = py(inputs);
    const diffs = inputs.filter((t, i) => JSON.stringify(Object.values(errsig(t))) !== JSON.stringify(out[i]));
    expect(diffs.slice(0, 3)).toEqual([]);
  });
});

describe('bounds and robustness', () => {
  let seed = 99;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const junk = (n: number, alphabet: string) => {
    const a = Array.from(alphabet);
    let s = '';
    for (let i = 0; i < n; i++) s += a[Math.floor(rnd() * a.length)];
    return s;
  };
  const adversarial: Record<string, string> = {
    empty: '',
    whitespace: ' \t \n\n\r\n   \t',
    junk16k: junk(16384, 'abcdefXYZ0123456789 \n\t\'"`:/\\.-_@=()[]{}<>\x1b%'),
    binaryish: junk(16384, Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('')),
    unicode16k: junk(16384, 'é😀\u2028\u00a0\ufeff\ud800\udc00中文ß\u0301'),
    hugeLine: 'x'.repeat(1 << 20),
    hugeErrorLine: 'Error: ' + 'a/b.c:1 '.repeat(100000),
    manyLines: 'Traceback (most recent call last):\n'.repeat(20000),
    newlines: '\n'.repeat(100000),
    quotes: "Error: '" + "a'b".repeat(6000),
    doubleQuotes: 'Error: ' + '"'.repeat(16000),
    backticks: 'error: ' + '`'.repeat(16000),
    unterminatedOsc: '\x1b]'.repeat(8000),
    slashes: 'Error: ' + '/a'.repeat(8000),
    dots: 'Error: ' + 'a.'.repeat(8000),
    digits: 'Error: ' + '1.'.repeat(8000),
    colons: 'Error: ' + ':1'.repeat(8000),
    ipv6ish: 'Error: ' + 'a:'.repeat(8000),
    frames: '    at ' + '('.repeat(16000),
    emailish: 'Error: ' + 'a.b-c'.repeat(3000) + '@',
    astral: 'Error: ' + '😀'.repeat(8000),
    privateUse: '\ue000\ue100\ue001'.repeat(3000),
    // v2 patterns on long inputs
    didYouMean: 'error: x did you mean ' + 'a'.repeat(16000),
    pctEncoded: 'Error: ' + '%2Fa'.repeat(4000),
    dottedNames: 'undefined: ' + 'a.'.repeat(8000),
    declared: './m.go:1:2: ' + 'a.b'.repeat(5000) + ' declared',
    cLineLong: 'error: ' + 'x'.repeat(16000),
    npeQuotes: 'Exception in thread "main" java.lang.NullPointerException: Cannot invoke ' + '"a" '.repeat(4000) + '\n\tat A.b(A.java:1)',
    webpackLong: 'Module not found: Error: ' + "Can't resolve 'x' ".repeat(1000),
    coarseNames: 'npm error code E404\nnpm error 404  ' + "'a@1.2.3' ".repeat(2000) + 'is not in this registry.',
  };

  it('never throws, stays fast, and always returns a well-formed sig of at most 200 code points', () => {
    for (const [name, text] of Object.entries(adversarial)) {
      const { ms, value: r } = ownMs(() => errsig(text));
      expect(ms, name).toBeLessThan(250);
      expect(Array.from(r.sig).length, name).toBeLessThanOrEqual(200);
      expect(r.sig, name).toMatch(/^(py|node|ts|rust|go|java|c|npm|pip|sh|sql|other):/);
      expect(r.sig, name).not.toMatch(/[\t\n\r\ue000-\uf8ff]/);
      expect(r.h, name).toMatch(/^[0-9a-f]{64}$/);
      expect(Array.from(r.coarse).length, name).toBeLessThanOrEqual(200);
      expect(r.coarse.slice(0, r.coarse.indexOf(':')), name).toBe(r.sig.slice(0, r.sig.indexOf(':')));
      expect(r.ch, name).toBe(sha256Hex(r.coarse));
    }
    expect(errsig('').sig).toBe('other:');
    expect(errsig(adversarial.whitespace).sig).toBe('other:');
  });

  it('Python agrees on the adversarial inputs and stays fast too', () => {
    const names = Object.keys(adversarial);
    const t0 = performance.now();
    const out = py(names.map((k) => adversarial[k]));
    expect(performance.now() - t0).toBeLessThan(10_000);
    names.forEach((k, i) => expect(out[i], k).toEqual(Object.values(errsig(adversarial[k]))));
  });

  it('is deterministic and bounds long messages at 200 code points on both sides', () => {
    const long = 'Traceback (most recent call last):\nValueError: ' + 'word '.repeat(300);
    const astral = 'ValueError: ' + '😀'.repeat(400);
    for (const t of [long, astral, vectors[3].input]) {
      const a = errsig(t);
      expect(errsig(t)).toEqual(a);
      expect(Array.from(a.sig).length).toBeLessThanOrEqual(200);
    }
    expect(Array.from(errsig(astral).sig)).toHaveLength(200);
    expect(errsig(long).sig.endsWith(' ')).toBe(false);
    const out = py([long, astral]);
    expect(out).toEqual([long, astral].map((t) => Object.values(errsig(t))));
    for (const t of [long, astral]) expect(Array.from(errsig(t).coarse).length).toBeLessThanOrEqual(200);
  });

  it('a signature is unchanged by surrounding noise: CI prefixes, ANSI colours, CRLF, blank lines', () => {
    const base = 'Traceback (most recent call last):\n  File "/app/x.py", line 2, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'';
    const crlf = base.replace(/\n/g, '\r\n') + '\r\n\r\n';
    const ci =
      base
        .split('\n')
        .map((l, i) => `2024-05-14T08:31:0${i}.1187764Z ${l}`)
        .join('\n') + '\n2024-05-14T08:31:09.9Z ##[error]Process completed with exit code 1.';
    const ansi = base.replace('ModuleNotFoundError', '\x1b[1;31mModuleNotFoundError\x1b[0m');
    const sig = errsig(base).sig;
    expect(sig).toBe("py:ModuleNotFoundError: No module named 'yaml'");
    for (const t of [crlf, ci, ansi, '\n\n' + base + '\n\n']) expect(errsig(t).sig).toBe(sig);
  });
});

describe('v1 stays available', () => {
  it('errsig-v1.js still gives every v1 vector (entries written under v1 are re-signed from it)', () => {
    const ls = readFileSync(dir + 'errsig-v1.tsv', 'utf8').split('\n');
    const rows = ls
      .slice(ls.indexOf('input\tsig\tsha256') + 1)
      .filter(Boolean)
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(50);
    expect(v1.ERRSIG_VERSION).toBe(1);
    for (const [i, sg, h] of rows) expect(v1.errsig(unescapeVector(i!))).toEqual({ sig: unescapeVector(sg!), h });
  });
});

describe('v2 on the errors the issue names', () => {
  const sig = (t: string) => errsig(t).sig;
  it('parameterizes the names a template carries and keeps module and crate names', () => {
    // Two outputs of one error with different user names: one fine signature.
    const pairs: [string, string][] = [
      [
        'error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable',
        'error[E0502]: cannot borrow `self.cache` as mutable because it is also borrowed as immutable',
      ],
      ['./main.go:5:2: undefined: x', 'internal/db/db.go:41:9: undefined: sqlx.Open'],
      [
        "src/a.ts:1:7 - error TS2322: Type 'number' is not assignable to type 'string'.",
        "src/b.ts(9,1): error TS2322: Type 'Foo' is not assignable to type 'Bar'.",
      ],
      [
        'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "<local1>" is null\n\tat A.main(A.java:3)',
        'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "java.util.List.size()" because "items" is null\n\tat B.run(B.java:9)',
      ],
      [
        "ERROR 1045 (28000): Access denied for user 'app'@'%' (using password: YES)",
        "ERROR 1045 (28000): Access denied for user 'root'@'10.0.0.7' (using password: YES)",
      ],
      ['Error: Could not find or load main class com.example.App', 'Error: Could not find or load main class Main'],
      [
        'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json": dial unix /var/run/docker.sock: connect: permission denied',
        'Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Head "http://%2Fvar%2Frun%2Fdocker.sock/_ping": dial unix /var/run/docker.sock: connect: permission denied',
      ],
      [
        '  File "a.py", line 1\n    print "x"\n    ^\nSyntaxError: Missing parentheses in call to \'print\'. Did you mean print(...)?',
        '  File "b.py", line 9\n    print "y"\n    ^\nSyntaxError: Missing parentheses in call to \'print\'. Did you mean print("y")?',
      ],
    ];
    for (const [a, b] of pairs) expect(sig(a), a.slice(0, 60)).toBe(sig(b));
    // Names that say which library is missing stay in the fine signature; the coarse one drops them.
    const mods = ["ModuleNotFoundError: No module named 'requests'", "ModuleNotFoundError: No module named 'yaml'"].map((t) => errsig(t));
    expect(mods[0]!.sig).not.toBe(mods[1]!.sig);
    expect(mods[0]!.coarse).toBe(mods[1]!.coarse);
    expect(sig('error[E0432]: unresolved import `serde_json`')).toBe("rust:error[E0432]: unresolved import 'serde_json'");
  });

  it('takes the line that states the error and tags one-line outputs', () => {
    expect(sig("ERROR in ./src/index.js 3:0-28\nModule not found: Error: Can't resolve 'axios' in '/app/src'")).toBe(
      "node:Module not found: Can't resolve 'axios' in <path>",
    );
    expect(sig('panic: assignment to entry in nil map')).toBe('go:panic: assignment to entry in nil map');
    expect(sig("error: 'x' undeclared (first use in this function)")).toMatch(/^c:/);
    expect(sig('fatal error: stdio.h: No such file or directory')).toMatch(/^c:/);
    // Java: the root cause (the last `Caused by:`), as in v1.
    expect(
      sig(
        'Exception in thread "main" java.lang.IllegalStateException: x\n\tat A.b(A.java:1)\nCaused by: java.io.IOException: y\n\tat C.d(C.java:2)\nCaused by: java.net.ConnectException: Connection refused\n\tat E.f(E.java:3)',
      ),
    ).toBe('java:java.net.ConnectException: Connection refused');
  });
});
