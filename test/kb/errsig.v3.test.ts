// ErrSig v3: the line that states the error wins over prompts, progress, tables, hints and wrapper
// lines (each wrapper and each kind of skipped line of the spec's tables has a case here); nothing
// private stays in a signature (each placeholder kind); public package names stay; candidates()
// in both implementations; v2 stays available (errsig-v2.js gives every v2 vector).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRSIG_PATTERNS, ERRSIG_VERSION, candidates, errsig } from '../../src/core/kb/errsig/errsig.js';
import * as v2 from '../../src/core/kb/errsig/errsig-v2.js';

const dir = fileURLToPath(new URL('../../src/core/kb/errsig/', import.meta.url));
const PY = dir + 'errsig.py';
const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('errsig', sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
req = json.loads(sys.stdin.buffer.read().decode('utf-8'))
out = {'sig': [list(m.errsig_levels(t)) for t in req['sig']], 'cand': [[list(c) for c in m.candidates(t, k)] for t, k in req['cand']]}
sys.stdout.write(json.dumps(out))
`;
function py(sig: string[], cand: Array<[string, number]> = []): { sig: string[][]; cand: string[][][] } {
  const r = spawnSync('python3', ['-B', '-c', DRIVER, PY], { input: JSON.stringify({ sig, cand }), maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error('python3 failed: ' + r.stderr.toString());
  return JSON.parse(r.stdout.toString());
}
const sig = (t: string) => errsig(t).sig;
const unescapeVector = (s: string) =>
  s.replace(/\\(\\|n|r|t|e|x[0-9a-fA-F]{2})/g, (_m, e: string) =>
    e === '\\' ? '\\' : e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e === 'e' ? '\x1b' : String.fromCharCode(parseInt(e.slice(1), 16)),
  );
const spec = readFileSync(dir + 'errsig.md', 'utf8');
/** The first-column texts of the markdown table under a heading of errsig.md. */
function tableRows(heading: string): string[] {
  const at = spec.indexOf(heading);
  expect(at).toBeGreaterThanOrEqual(0);
  const lines = spec.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|---'));
  const rows: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith('|')) break;
    rows.push(l.split(' | ')[0]!.replace(/^\| /, ''));
  }
  return rows;
}
const WRAP = new RegExp(ERRSIG_PATTERNS.wrap!);
const SKIP = new RegExp(ERRSIG_PATTERNS.skip!);

// One case per row of the spec's wrapper table: the wrapper line, an output where a more specific
// line states the error, and the signature that line gives.
const WRAPPERS: Array<{ row: string; wrapper: string; output: string; want: string }> = [
  {
    row: '`error: failed to push some refs to …`',
    wrapper: "error: failed to push some refs to 'github.com:acme/widgets.git'",
    output:
      "To github.com:acme/widgets.git\n ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/widgets.git'\nhint: Updates were rejected because the tip of your current branch is behind",
    want: 'git:! [rejected] <ref> -> <ref> (non-fast-forward)',
  },
  {
    row: '`error: external filter … failed`',
    wrapper: "error: external filter 'git-lfs filter-process' failed",
    output:
      "Error downloading object: a.psd (1a2b3c4): Smudge error: Error downloading a.psd (1a2b3c4d5e6f): batch response: This repository is over its data quota. Account responsible for LFS bandwidth should purchase more data packs to restore access.\nerror: external filter 'git-lfs filter-process' failed",
    want: 'git:This repository is over its data quota. Account responsible for LFS bandwidth should purchase more data packs to restore access.',
  },
  {
    row: '`fatal: <path>: smudge filter <name> failed`',
    wrapper: 'fatal: assets/a.psd: smudge filter lfs failed',
    output:
      'Error downloading object: assets/a.psd (9f2c1ab): Smudge error: Error downloading assets/a.psd (9f2c1ab7d3e4): [9f2c1ab7d3e4] Object does not exist on the server: [404] Object does not exist on the server\nfatal: assets/a.psd: smudge filter lfs failed',
    want: 'git:[<hex>] Object does not exist on the server: [<n>] Object does not exist on the server',
  },
  {
    row: '`fatal: Could not read from remote repository.`',
    wrapper: 'fatal: Could not read from remote repository.',
    output: 'ssh: connect to host git.corp.example port 22: Connection timed out\nfatal: Could not read from remote repository.',
    want: 'other:ssh: connect to host <host> port <n>: Connection timed out',
  },
  {
    row: '`Some problems were encountered while processing the POMs:`',
    wrapper: '[ERROR] [ERROR] Some problems were encountered while processing the POMs:',
    output:
      "[INFO] Scanning for projects...\n[ERROR] [ERROR] Some problems were encountered while processing the POMs:\n[FATAL] Non-resolvable parent POM for com.acme:orders:1.0.0: Could not find artifact com.acme:parent:pom:4.2.0 and 'parent.relativePath' points at wrong local POM @ line 6, column 11",
    want: "java:Non-resolvable parent POM for com.acme:orders:<v>: Could not find artifact com.acme:parent:pom:<v> and 'parent.relativePath' points at wrong local POM @ line <n>, column <n>",
  },
  {
    row: '`The build could not read N project(s)`',
    wrapper: '[ERROR] The build could not read 1 project -> [Help 1]',
    output:
      "[ERROR] The build could not read 1 project -> [Help 1]\n[ERROR] 'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line 25, column 21",
    want: "other:[ERROR] 'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line <n>, column <n>",
  },
  {
    row: '`The project <gav> (<path>) has N error(s)`',
    wrapper: '[ERROR]   The project com.acme:billing:0.3.0 (/home/u/billing/pom.xml) has 1 error',
    output:
      "[INFO] Scanning for projects...\n[ERROR]   The project com.acme:billing:0.3.0 (/home/u/billing/pom.xml) has 1 error\n[ERROR]     'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line 25, column 21",
    want: "java:'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line <n>, column <n>",
  },
  {
    row: '`(ERROR: )failed to solve: process "…" did not complete successfully`',
    wrapper: 'ERROR: failed to solve: process "/bin/sh -c apt-get install -y libpq-dev" did not complete successfully: exit code: 100',
    output:
      '------\n > [3/5] RUN apt-get install -y libpq-dev:\n2.701 E: Unable to locate package libpq-dev\n------\nERROR: failed to solve: process "/bin/sh -c apt-get install -y libpq-dev" did not complete successfully: exit code: 100',
    want: 'other:E: Unable to locate package libpq-dev',
  },
  {
    row: '`=> ERROR [stage n/m] RUN …`',
    wrapper: '=> ERROR [builder 6/7] RUN npm run build                                    58.4s',
    output: ' => ERROR [builder 6/7] RUN npm run build                                    58.4s\n------\n > [builder 6/7] RUN npm run build:\n57.902 Killed',
    want: 'other:Killed',
  },
  {
    row: '`ERROR: Job failed: …`',
    wrapper: 'ERROR: Job failed: exit code 1',
    output:
      'Running with gitlab-runner 16.8.0\nError: Unable to resolve action `actions/setup-node@v9`, unable to find version `v9`\nERROR: Job failed: exit code 1',
    want: "node:Error: Unable to resolve action 'actions/setup-node@v9', unable to find version 'v9'",
  },
  {
    row: "`(Error: )The process '…' failed with exit code N`",
    wrapper: "Error: The process '/usr/bin/git' failed with exit code 128",
    output: "fatal: could not read Username for 'https://github.com': terminal prompts disabled\nError: The process '/usr/bin/git' failed with exit code 128",
    want: 'other:fatal: could not read Username for <url>: terminal prompts disabled',
  },
  {
    row: '`FAILURE: Build failed with an exception.`',
    wrapper: 'FAILURE: Build failed with an exception.',
    output: "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:compileKotlin'.",
    want: "java:Execution failed for task ':app:compileKotlin'.",
  },
  {
    row: '`BUILD FAILURE`, `BUILD FAILED`',
    wrapper: '[INFO] BUILD FAILURE',
    output: '[INFO] BUILD FAILURE\nerror: could not create directory /opt/app: Permission denied',
    want: 'other:error: could not create directory <path>: Permission denied',
  },
  {
    row: '`(Error: )Command failed: <command>`',
    wrapper: 'Error: Command failed: npx prisma migrate deploy',
    output:
      "Error: Command failed: npx prisma migrate deploy\nError: P1001: Can't reach database server at `db.internal.acme.io`:`5432`\n    at checkExecSyncError (node:child_process:890:11)",
    want: "node:Error: P1001: Can't reach database server at <s>:<s>",
  },
  {
    row: '``error: Recipe `x` failed …``',
    wrapper: 'error: Recipe `build` failed on line 4 with exit code 101',
    output: 'ld: library not found for -lssl\nerror: Recipe `build` failed on line 4 with exit code 101',
    want: 'c:ld: library not found for -lssl',
  },
  {
    row: '`<name> exited with code N`',
    wrapper: 'myproj-web-1 exited with code 1',
    output: "myproj-web-1  | Error: Cannot find module 'express'\nmyproj-web-1 exited with code 1",
    want: "node:Error: Cannot find module 'express'",
  },
  {
    row: '`✘ Container <name> Error`',
    wrapper: '\u2718 Container myproj-db-1   Error',
    output: ' \u2718 Container myproj-db-1   Error\ndependency failed to start: container myproj-db-1 is unhealthy',
    want: 'other:dependency failed to start: container <container> is unhealthy',
  },
];

// One case per row of the spec's skip table: lines that must not become the signature.
const SKIPS: Array<{ row: string; lines: string[]; output: string; want: string }> = [
  {
    row: 'prompts and echoes',
    lines: ['$ npm test', '> shop@1.4.0 test'],
    output: 'dana@devbox:~/src/shop$ npm test\n\n> shop@1.4.0 test\n> vitest run\n\nsh: 1: vitest: not found',
    want: 'sh:command not found: vitest',
  },
  {
    row: 'hints',
    lines: ['hint: Updates were rejected because the tip of your current branch is behind'],
    output: 'hint: You have divergent branches and need to specify how to reconcile them.\nfatal: Need to specify how to reconcile divergent branches.',
    want: 'other:fatal: Need to specify how to reconcile divergent branches.',
  },
  {
    row: 'tables',
    lines: ['NAME READY STATUS RESTARTS AGE', 'CONTAINER ID   IMAGE          COMMAND', 'REPOSITORY   TAG       IMAGE ID'],
    output: 'NAME READY STATUS RESTARTS AGE\ncart-api-6f7d9c8b4-k2j9p 0/1 ImagePullBackOff 0 3m12s',
    want: 'k8s:pod status ImagePullBackOff',
  },
  {
    row: 'image pulls',
    lines: [
      "Unable to find image 'x:latest' locally",
      '16: Pulling from library/postgres',
      'a2318d6c47ec: Pull complete',
      'Digest: sha256:4aea0125',
      'Status: Downloaded newer image for postgres:16',
    ],
    output:
      "Unable to find image 'brightloom/cart-api:latest' locally\ndocker: Error response from daemon: pull access denied for brightloom/cart-api, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.",
    want: 'other:docker: Error response from daemon: pull access denied for <image>, repository does not exist or may require <s>: denied: requested access to the resource is denied.',
  },
  {
    row: 'git progress',
    lines: [
      'remote: Enumerating objects: 52, done.',
      'Receiving objects: 100% (52/52), 18.20 KiB | 1.82 MiB/s, done.',
      'To github.com:acme/widgets.git',
      'Uploading LFS objects:   0% (0/1), 0 B | 0 B/s, done.',
    ],
    output:
      "Cloning into 'x'...\nremote: Enumerating objects: 52, done.\nReceiving objects: 100% (52/52), 18.20 KiB | 1.82 MiB/s, done.\nfatal: could not open '/home/dana/x/.git/objects/pack/tmp' for writing: Permission denied",
    want: 'other:fatal: could not open <path> for writing: Permission denied',
  },
  {
    row: 'progress',
    lines: ['45% [=========>           ] 12.3MB/27.1MB', '[=====>    ] 45%'],
    output: ' 45% [=========>           ] 12.3MB/27.1MB\nOSError: [Errno 28] No space left on device',
    want: 'py:OSError: [Errno 28] No space left on device',
  },
];

describe('v3: the line that states the error', () => {
  it('ERRSIG_VERSION is 3 in both implementations', () => {
    expect(ERRSIG_VERSION).toBe(3);
    expect(readFileSync(PY, 'utf8')).toMatch(/^ERRSIG_VERSION = 3$/m);
  });

  it('the spec documents one wrapper per case here, and each case holds', () => {
    expect(tableRows('#### Wrapper lines').sort()).toEqual(WRAPPERS.map((w) => w.row).sort());
    const out = py(WRAPPERS.flatMap((w) => [w.output, w.wrapper])).sig;
    WRAPPERS.forEach((w, k) => {
      expect(WRAP.test(w.wrapper.trim()), w.row).toBe(true);
      // A more specific line wins; JavaScript and Python agree.
      expect(sig(w.output), w.row).toBe(w.want);
      expect(out[2 * k]![0], w.row).toBe(w.want);
      // Alone, the wrapper is still the signature (nothing else says what failed).
      expect(out[2 * k + 1]![0], w.row).toBe(sig(w.wrapper));
      expect(sig(w.wrapper), w.row).not.toBe('other:');
    });
  });

  it('the spec documents one kind of skipped line per case here, and each case holds', () => {
    expect(tableRows('#### Skip lines').sort()).toEqual(SKIPS.map((w) => w.row).sort());
    const out = py(SKIPS.map((w) => w.output)).sig;
    SKIPS.forEach((w, k) => {
      for (const l of w.lines) expect(SKIP.test(l.trim()), l).toBe(true);
      expect(sig(w.output), w.row).toBe(w.want);
      expect(out[k]![0], w.row).toBe(w.want);
    });
  });

  it('fixes the measured problems of the issue', () => {
    // A shell prompt, a kubectl table header, docker's `Unable to find image`, Maven's POM header.
    expect(sig('dana@devbox:~/proj$ npm test\nnpm ERR! Missing script: "test"')).toBe("npm:Missing script: 'test'");
    expect(sig('dana@devbox:~/proj$ npm test')).toBe('other:$ npm test');
    expect(
      sig('NAME                        READY   STATUS             RESTARTS      AGE\nweb-7c9d8f6b5-x2x4z         0/1     CrashLoopBackOff   5 (2m ago)    7m'),
    ).toBe('k8s:pod status CrashLoopBackOff');
    expect(sig('NAME READY STATUS RESTARTS AGE\nweb-7c9d8f6b5-x2x4z 1/1 Running 0 7m')).toBe('other:NAME READY STATUS RESTARTS AGE');
    expect(
      sig(
        "Unable to find image 'postgres:16' locally\n16: Pulling from library/postgres\nStatus: Downloaded newer image for postgres:16\nError: Database is uninitialized and superuser password is not specified.",
      ),
    ).toBe('node:Error: Database is uninitialized and superuser password is not specified.');
    expect(
      sig(
        "[INFO] Scanning for projects...\n[ERROR] [ERROR] Some problems were encountered while processing the POMs:\n[ERROR] 'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line 25, column 21",
      ),
    ).toBe("java:'dependencies.dependency.version' for org.postgresql:postgresql:jar is missing. @ line <n>, column <n>");
    // git push: the rejected ref's reason, not the `failed to push some refs` wrapper.
    const pat = sig(
      "To https://github.com/acme/widgets.git\n ! [remote rejected] main -> main (refusing to allow a Personal Access Token to create or update workflow `.github/workflows/ci.yml` without `workflow` scope)\nerror: failed to push some refs to 'https://github.com/acme/widgets.git'",
    );
    expect(pat).toBe(
      "git:! [remote rejected] <ref> -> <ref> (refusing to allow a Personal Access Token to create or update workflow <path> without 'workflow' scope)",
    );
    expect(sig("To github.com:x/y.git\n ! [rejected]        dev -> dev (non-fast-forward)\nerror: failed to push some refs to 'github.com:x/y.git'")).toBe(
      sig(
        "To github.com:acme/widgets.git\n ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/widgets.git'",
      ),
    );
  });
});

describe('v3: nothing private in a signature', () => {
  // [input, what must not appear in the signature, the placeholder that must]
  const CASES: Array<[string, string[], string]> = [
    ["fatal: 'git@github.com:acme/widgets.git' does not appear to be a git repository", ['acme', 'widgets'], '<repo>'],
    ["error: failed to push some refs to 'github.com:acme/widgets.git'", ['acme', 'widgets'], '<repo>'],
    ['ERROR: Permission to moraes-lab/pricing-engine.git denied to dana-moraes.', ['moraes', 'pricing', 'dana'], '<repo>'],
    ["GraphQL: Could not resolve to a Repository with the name 'moraes-lab/pricing-engine'. (repository)", ['moraes', 'pricing'], '<repo>'],
    ['Error response from daemon: manifest for ghcr.io/brightloom/cart-api:1.4.2 not found: manifest unknown', ['brightloom', 'cart-api', 'ghcr'], '<image>'],
    [
      "docker: Error response from daemon: pull access denied for brightloom/cart-api, repository does not exist or may require 'docker login'",
      ['brightloom', 'cart-api'],
      '<image>',
    ],
    ['Error response from daemon: No such image: myproj-web:latest', ['myproj'], '<image>'],
    ['Failed to pull image "registry.corp.example:5000/team/billing:3.2.0": not found', ['corp', 'team', 'billing'], '<image>'],
    ['dependency failed to start: container myproj-db-1 is unhealthy', ['myproj'], '<container>'],
    ['Error response from daemon: network myproj_default not found', ['myproj'], '<network>'],
    ['Error: volume myproj_pgdata is in use', ['myproj', 'pgdata'], '<volume>'],
    [
      'go: git.corp.example/team/svc@v0.3.1: reading git.corp.example/team/svc/go.mod at revision v0.3.1: unknown revision v0.3.1',
      ['corp', 'team', 'svc'],
      '<module>',
    ],
    ['go: open /home/dana/go/pkg/mod/git.corp.example/team/svc@v0.3.1/go.mod: permission denied', ['corp', 'team', 'dana'], 'gomod/<module>'],
    ["fatal: unable to access 'https://git.corp.example/team/svc.git/': Could not resolve host: git.corp.example", ['corp', 'team'], '<host>'],
    ['ssh: Could not resolve hostname bastion-prod: Name or service not known', ['bastion'], '<host>'],
    ['panic: dial tcp: lookup postgres on 127.0.0.11:53: no such host', ['postgres', '127.0'], '<host>'],
    ['dana is not in the sudoers file.  This incident will be reported.', ['dana'], '<user>'],
    ['su: user deploy does not exist or the user entry does not contain all the required fields', ['deploy'], '<user>'],
    ["fatal: unable to auto-detect email address (got 'dana@devbox.(none)')", ['dana', 'devbox'], '<email>'],
    ['Error: Invitation for dana.moraes@acme.io expired', ['dana', 'acme'], '<email>'],
    ['remote: error: GH006: Protected branch update failed for refs/heads/dana-release.', ['dana'], 'refs/heads/<ref>'],
    ['error: src refspec feature/dana-billing does not match any', ['dana', 'billing'], '<ref>'],
    ['Error: connect ECONNREFUSED 10.0.12.7:6379', ['10.0'], '<ip>'],
    ['psql: error: connection to server at "db" (fd00:10:20::7), port 5432 failed: Connection refused', ['fd00'], '<ip>'],
    ['Error: resource 3f2b8c1e-4d5a-4b6c-9e8f-0a1b2c3d4e5f was not found', ['3f2b8c1e'], '<uuid>'],
    ['Error response from daemon: Container 7f3e2d1c0b9a8e7f6d5c4b3a2918273645546372819abcdef0123456789abcd is not running', ['7f3e2d'], '<hex>'],
    ["PermissionError: [Errno 13] Permission denied: '/home/dana.moraes/.cache/x'", ['dana'], '<path>'],
    ['dana@devbox:~/src/shop$ make build', ['dana', 'devbox', 'shop'], '$ make build'],
    ['PS C:\\Users\\dana\\shop> npm run dev', ['dana', 'shop'], '$ npm run dev'],
    ["fatal: unable to access 'https://dana:hunter2@git.corp.example/x.git/': The requested URL returned error: 403", ['dana', 'hunter2', 'corp'], '<url>'],
  ];
  it('replaces every private name kind and both implementations agree', () => {
    const out = py(CASES.map(([t]) => t)).sig;
    CASES.forEach(([t, gone, ph], k) => {
      const s = sig(t);
      for (const g of gone) expect(s, t).not.toContain(g);
      expect(s, t).toContain(ph);
      expect(out[k]![0], t).toBe(s);
    });
  });

  it('the same error of another owner, host, image or project has one signature', () => {
    const pairs: Array<[string, string]> = [
      ['ERROR: Permission to moraes-lab/pricing-engine.git denied to dana.', 'ERROR: Permission to acme/widgets.git denied to ci-bot.'],
      [
        'Error response from daemon: manifest for ghcr.io/brightloom/cart-api:1.4.2 not found: manifest unknown',
        'Error response from daemon: manifest for quay.io/acme/api:2 not found: manifest unknown',
      ],
      ['dependency failed to start: container myproj-db-1 is unhealthy', 'dependency failed to start: container shop-postgres-2 is unhealthy'],
      [
        'go: git.corp.example/team/svc@v0.3.1: invalid version: unknown revision v0.3.1',
        'go: gitlab.internal.acme.io/x/y@v1.0.0: invalid version: unknown revision v1.0.0',
      ],
      ['ssh: connect to host git.corp.example port 22: Connection timed out', 'ssh: connect to host bitbucket.org port 22: Connection timed out'],
    ];
    for (const [a, b] of pairs) expect(sig(a), a).toBe(sig(b));
  });

  it('keeps public package names', () => {
    expect(sig("ModuleNotFoundError: No module named 'requests'")).toBe("py:ModuleNotFoundError: No module named 'requests'");
    expect(sig("Error: Cannot find module 'react-router-dom'\nRequire stack:\n- /app/x.js")).toBe("node:Error: Cannot find module 'react-router-dom'");
    expect(sig('main.go:5:2: no required module provides package github.com/spf13/cobra; to add it:')).toBe(
      'go:no required module provides package github.com/spf13/cobra; to add it:',
    );
    expect(sig('go: golang.org/x/tools@v0.20.0 requires go >= 1.22')).toBe('go:go: golang.org/x/tools@<v> requires go >= <n>');
    expect(sig("Module not found: Error: Can't resolve 'chart.js/auto' in '/app/src'")).toBe("node:Module not found: Can't resolve 'chart.js/auto' in <path>");
    expect(sig('E: Unable to locate package python3-pip')).toBe('other:E: Unable to locate package python3-pip');
    // Kubernetes API groups are not module paths.
    expect(sig('error: exec plugin: invalid apiVersion "client.authentication.k8s.io/v1alpha1"')).not.toContain('<module>');
  });
});

describe('v3: candidates', () => {
  const tsv = readFileSync(dir + 'errsig.tsv', 'utf8').split('\n');
  const inputs = tsv
    .slice(tsv.indexOf('input\tsig\tsha256\tcoarse') + 1)
    .filter(Boolean)
    .map((l) => unescapeVector(l.split('\t')[0]!));

  it('the first candidate is errsig(text); a one-line input has one; max bounds the list', () => {
    for (const t of inputs) {
      const c = candidates(t);
      const e = errsig(t);
      expect(c.length, t.slice(0, 60)).toBeGreaterThanOrEqual(1);
      expect(c.length).toBeLessThanOrEqual(3);
      expect({ sig: c[0]!.sig, h: c[0]!.h, coarse: c[0]!.coarse, ch: c[0]!.ch }).toEqual(e);
      expect(new Set(c.map((x) => x.sig)).size).toBe(c.length);
      if (t !== '' && !/[\r\n]/.test(t.trim())) expect(c, t).toHaveLength(1);
    }
    expect(candidates('')).toEqual([{ ...errsig(''), line: '' }]);
    expect(candidates('x', 0)).toEqual([]);
    expect(candidates('TypeError: a is not a function', 1)).toHaveLength(1);
  });

  it('lists the distinct errors of an output, best first, with their lines', () => {
    const t =
      "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\nsrc/b.ts(9,1): error TS2304: Cannot find name 'describe'.\nsrc/c.ts(1,1): error TS2307: Cannot find module 'zod' or its corresponding type declarations.";
    const c = candidates(t, 5);
    expect(c.map((x) => x.sig)).toEqual([
      'ts:error TS2322: Type <s> is not assignable to type <s>.',
      'ts:error TS2304: Cannot find name <s>.',
      "ts:error TS2307: Cannot find module 'zod' or its corresponding type declarations.",
    ]);
    expect(c[1]!.line).toBe("src/b.ts(9,1): error TS2304: Cannot find name 'describe'.");
    expect(candidates(t, 2)).toHaveLength(2);
    // A wrapper is not a candidate once a line stated the error.
    const push = candidates(
      "To github.com:acme/widgets.git\n ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/widgets.git'\nhint: Updates were rejected",
    );
    expect(push.map((x) => x.sig)).toEqual(['git:! [rejected] <ref> -> <ref> (non-fast-forward)']);
  });

  it('max: at most 16, rounded down; below 1 none', () => {
    const many = Array.from(
      { length: 20 },
      (_, k) => `src/m${k}.ts(1,1): error TS2307: Cannot find module 'pkg${String.fromCharCode(97 + k)}' or its corresponding type declarations.`,
    ).join('\n');
    expect(candidates(many, 100)).toHaveLength(16);
    expect(candidates(many, 2.5)).toHaveLength(2);
    expect(candidates(many, 0.5)).toEqual([]);
    expect(candidates(many, Number.NaN)).toEqual([]);
    const out = py(
      [],
      [
        [many, 100],
        [many, 2.5],
        [many, 0.5],
      ],
    ).cand;
    expect(out.map((c) => c.length)).toEqual([16, 2, 0]);
    expect(out[0]).toEqual(candidates(many, 100).map((c) => [c.sig, c.h, c.coarse, c.ch, c.line]));
  });

  it('Python gives the same candidates (vectors, with several max values)', () => {
    const req: Array<[string, number]> = inputs.flatMap(
      (t) =>
        [
          [t, 3],
          [t, 1],
          [t, 6],
        ] as Array<[string, number]>,
    );
    const out = py([], req).cand;
    req.forEach(([t, k], i) => {
      const js = candidates(t, k).map((c) => [c.sig, c.h, c.coarse, c.ch, c.line]);
      expect(out[i], t.slice(0, 80)).toEqual(js);
    });
  });
});

describe('v3: one algorithm in two languages', () => {
  it('agrees on 2000 seeded inputs built from v3 fragments (prompts, wrappers, tables, git, images, modules, hosts, users, Compose)', () => {
    const frags = [
      'dana@devbox:~/src/shop$ ',
      '(venv) a@b:/x# ',
      '[u@h dir]$ ',
      'u@h dir % ',
      'PS C:\\Users\\u> ',
      'C:\\x>',
      '\u279c  shop git:(main) \u2717 ',
      '$ ',
      '> shop@1.0.0 test',
      'error: failed to push some refs to ',
      "'github.com:acme/widgets.git'",
      'git@gitlab.corp.example:team/x.git',
      ' ! [rejected]        main -> main (non-fast-forward)',
      ' ! [remote rejected] a -> b (pre-receive hook declined)',
      'batch response: This repository is over its data quota.',
      'Smudge error: Error downloading a.bin (1a2b3c4): ',
      'remote: error: GH006: Protected branch update failed for refs/heads/main.',
      "error: external filter 'git-lfs filter-process' failed",
      'fatal: a.psd: smudge filter lfs failed',
      'fatal: Could not read from remote repository.',
      'hint: x',
      'To github.com:a/b.git',
      '[ERROR] [ERROR] Some problems were encountered while processing the POMs:',
      '[FATAL] Non-resolvable parent POM',
      '[INFO] Scanning',
      '[ERROR]   The project a:b:1 (/x/pom.xml) has 1 error',
      'ERROR: failed to solve: process "/bin/sh -c x" did not complete successfully: exit code: 1',
      ' => ERROR [2/4] RUN x   1.2s',
      '1.103 E: Unable to locate package curl',
      'ERROR: Job failed: exit code 1',
      "Error: The process '/usr/bin/git' failed with exit code 128",
      'FAILURE: Build failed with an exception.',
      'BUILD FAILURE',
      'Error: Command failed: npx x',
      'error: Recipe `b` failed',
      'NAME READY STATUS RESTARTS AGE',
      'web-7c9d8f6b5-x2x4z 0/1 CrashLoopBackOff 5 (2m ago) 7m',
      'CONTAINER ID   IMAGE',
      '3f9c2a7b1d4e   myapp:latest   x',
      "Unable to find image 'x:1' locally",
      '16: Pulling from library/postgres',
      'a2318d6c47ec: Pull complete',
      'Digest: sha256:4aea',
      'Receiving objects: 100% (5/5)',
      ' 45% [====>   ] 1MB',
      'Uploading LFS objects: 0% (0/1)',
      'ghcr.io/brightloom/cart-api:1.4.2',
      'pull access denied for orders-api, ',
      'manifest for x/y:2 not found',
      'No such image: a:b',
      'image "a/b:1"',
      'no matching manifest for linux/arm64/v8',
      'git.corp.example/team/svc@v0.3.1',
      'go: ',
      'module ',
      'package ',
      'github.com/spf13/cobra',
      'chart.js/auto',
      'networking.k8s.io/v1',
      '/home/u/go/pkg/mod/git.corp.example/t/s@v1.0.0/go.mod',
      'Could not resolve host: git.corp.example',
      'ssh: connect to host 10.0.0.1 port 22: Connection timed out',
      'lookup db on 127.0.0.11:53: no such host',
      'UnknownHostException: db.svc',
      'Permission to a/b.git denied to dana.',
      'dana is not in the sudoers file.',
      'su: user bob does not exist',
      "(got 'u@h.(none)')",
      'dana.moraes@acme.io',
      'repository moraes-lab/pricing-engine',
      'container myproj-db-1 is unhealthy',
      'myproj-web-1 exited with code 1',
      '\u2718 Container myproj-db-1   Error',
      'network myproj_default not found',
      'volume myproj_pgdata',
      'src refspec main',
      'fd00:10:20::7',
      '3f2b8c1e-4d5a-4b6c-9e8f-0a1b2c3d4e5f',
      '7f3e2d1c0b9a8e7f6d5c4b3a',
      'Unable to locate package python3-pip',
      'No package nginx available.',
      'timed out',
      'unreachable',
      'Error: ',
      'error: ',
      'fatal: ',
      "ModuleNotFoundError: No module named 'requests'",
      '    at f (node:x:1:2)',
      '\n',
      '\n',
      '\n',
      ' ',
      ' ',
      "'",
      '"',
      '`',
      ':',
      '/',
      '@',
      '-',
      '_',
      '1',
    ];
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const inputs: string[] = [];
    for (let k = 0; k < 2000; k++) {
      let t = '';
      const parts = 1 + rnd(12);
      for (let j = 0; j < parts; j++) t += frags[rnd(frags.length)] + (rnd(3) === 0 ? '\n' : '');
      inputs.push(t);
    }
    const out = py(
      inputs,
      inputs.slice(0, 400).map((t) => [t, 4] as [string, number]),
    );
    const bad: string[] = [];
    inputs.forEach((t, k) => {
      const e = errsig(t);
      const p = out.sig[k]!;
      if (e.sig !== p[0] || e.h !== p[1] || e.coarse !== p[2] || e.ch !== p[3]) bad.push(JSON.stringify(t) + ' js=' + e.sig + ' py=' + p[0]);
    });
    inputs.slice(0, 400).forEach((t, k) => {
      const js = candidates(t, 4).map((c) => [c.sig, c.h, c.coarse, c.ch, c.line]);
      if (JSON.stringify(js) !== JSON.stringify(out.cand[k])) bad.push('candidates ' + JSON.stringify(t));
    });
    expect(bad).toEqual([]);
  });
});

describe('v2 stays available', () => {
  it('errsig-v2.js still gives every v2 vector (clients that pinned v2, entries written under v2)', () => {
    const ls = readFileSync(dir + 'errsig-v2.tsv', 'utf8').split('\n');
    const rows = ls
      .slice(ls.indexOf('input\tsig\tsha256\tcoarse') + 1)
      .filter(Boolean)
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(107);
    expect(v2.ERRSIG_VERSION).toBe(2);
    for (const [i, sg, h, c] of rows)
      expect(v2.errsig(unescapeVector(i!)), i!.slice(0, 60)).toMatchObject({ sig: unescapeVector(sg!), h, coarse: unescapeVector(c!) });
  });
});
