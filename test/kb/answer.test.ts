// The answer path (src/core/kb/answer.ts) on the cases the issue measured, through the real server:
// each wrong answer it listed now ranks the right entry first with its fix, or answers related (no
// fix); wrapper lines never decide; one-line quotes are answered; the faces and /brief name the
// same entries in the same order for the same text.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesOf, isWrapper, keyLines, keySim, unprefixed, WRAPPERS } from '../../src/core/kb/answer.js';
import { client03, data03, msg03, serveBase, type Json } from '../a2a/helpers.js';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
let mcp: Client;
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1', CX_SEED: '1' }); // the sample KB
  serveBase(s.url);
  mcp = new Client({ name: 'answer-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
}, 60_000);
afterAll(async () => {
  await mcp.close();
  await s.stop();
});

let net = 0;
const ask = async (text: string) => {
  const r = await fetch(`${s.url}/e?f=json`, {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'text/plain', 'x-forwarded-for': `10.77.${net++ % 250}.1` },
  });
  return { status: r.status, j: (r.status === 200 ? await r.json() : null) as Json };
};
/** The title of the entry whose fix the answer gives, or null when it gives none. */
const fixOf = (a: { status: number; j: Json }) =>
  a.status === 200 && (a.j.match === 'exact' || a.j.match === 'near') ? (a.j.entries[0].title as string) : null;
/** Titles the answer names, in order (entries, or related). */
const namedOf = (a: { status: number; j: Json }) => (a.status === 200 ? [...a.j.entries, ...a.j.related].map((e: Json) => e.title as string) : []);

describe('the cases the issue measured', () => {
  const cases: Array<{ name: string; text: string; right: string | null; wrong: string }> = [
    {
      name: 'a non-fast-forward push is not the workflow-scope fix',
      text: "To github.com:acme/widgets.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:acme/widgets.git'\nhint: Updates were rejected because the remote contains work that you do not\nhint: have locally. This is usually caused by another repository pushing\nhint: to the same ref. You may want to first integrate the remote changes\nhint: (e.g., 'git pull ...') before pushing again.",
      right: 'git push rejected (fetch first): the remote contains work that you do not have',
      wrong: 'git push: PAT lacks workflow scope to update .github/workflows',
    },
    {
      name: 'an LFS quota error is not the missing-object fix',
      text: "Downloading assets/model.bin (512 MB)\nError downloading object: assets/model.bin (4b1c9e2): Smudge error: Error downloading assets/model.bin: batch response: This repository is over its data quota. Account responsible for LFS bandwidth should purchase more data packs to restore access.\nerror: external filter 'git-lfs filter-process' failed\nfatal: assets/model.bin: smudge filter lfs failed",
      right: 'Git LFS: This repository is over its data quota',
      wrong: 'Git LFS: Smudge error: Object does not exist on the server (404)',
    },
    {
      name: 'a React peer conflict is not the Angular fix',
      text: 'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR!\nnpm ERR! While resolving: shop-web@0.3.0\nnpm ERR! Found: react@18.3.1\nnpm ERR! node_modules/react\nnpm ERR!   react@"^18.3.1" from the root project\nnpm ERR!\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@"^16.8.0 || ^17.0.0" from react-beautiful-dnd@13.1.1\nnpm ERR! node_modules/react-beautiful-dnd\nnpm ERR!   react-beautiful-dnd@"^13.1.1" from the root project',
      right: 'npm ERESOLVE unable to resolve dependency tree (peer react 16/17 vs 18)',
      wrong: 'npm ERESOLVE: conflicting peer dependency between Angular packages',
    },
    {
      name: "No module named 'x' is not the Python 3.12 imp fix",
      text: 'Traceback (most recent call last):\n  File "/home/lee/tools/report.py", line 3, in <module>\n    import tabulate\nModuleNotFoundError: No module named \'tabulate\'',
      right: null,
      wrong: "Python 3.12: No module named 'imp'",
    },
    {
      name: "'type' object is not subscriptable is not the missing-await fix",
      text: 'Traceback (most recent call last):\n  File "/srv/app/models.py", line 12, in <module>\n    def load(ids: list[int]) -> dict[str, int]:\nTypeError: \'type\' object is not subscriptable',
      // The KB holds this one now (2026-11-28): the right entry, or no fix; never the await fix.
      right: "TypeError: 'type' object is not subscriptable (list[int] on Python 3.8)",
      wrong: "TypeError: 'coroutine' object is not subscriptable (missing await)",
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const a = await ask(c.text);
      expect(fixOf(a)).not.toBe(c.wrong);
      if (c.right) {
        // The right entry first with its fix, or named among related ones with no fix.
        if (fixOf(a)) expect(fixOf(a)).toBe(c.right);
        else expect(namedOf(a)).toContain(c.right);
      } else expect(fixOf(a)).toBeNull();
    });
  }
});

describe('one-line quotes of held entries are answered', () => {
  // The six quotes that got 404 although their entries exist: each now names its entry (with its
  // fix when one entry reads clearly closest, else among related ones).
  const quotes: Array<[string, RegExp]> = [
    ['npm ERR! code ERESOLVE', /ERESOLVE/],
    ['git@github.com: Permission denied (publickey).', /Permission denied \(publickey\)/],
    [
      'ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)',
      /CERTIFICATE_VERIFY_FAILED/,
    ],
    ['OSError: [Errno 28] No space left on device', /No space left on device/],
    ['Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock', /Docker daemon socket/i],
    ["ImportError: cannot import name 'soft_unicode' from 'markupsafe' (/opt/venv/lib/python3.11/site-packages/markupsafe/__init__.py)", /soft_unicode/],
  ];
  for (const [q, title] of quotes) {
    it(q.slice(0, 60), async () => {
      const a = await ask(q);
      expect(a.status).toBe(200);
      expect(
        namedOf(a)
          .slice(0, 3)
          .some((t) => title.test(t)),
      ).toBe(true);
    });
  }
});

describe('a quote naming the value an entry names', () => {
  // Other words around the key line lower `sure`; the entry that names the very module the quote
  // names (and the next candidate does not) is the fix, marked near. A module no entry names gets
  // none (the 'tabulate' case above).
  const quotes: Array<[string, string]> = [
    ["worker.py: ModuleNotFoundError: No module named 'serial'", "ModuleNotFoundError: No module named 'serial' (the package is pyserial)"],
    [
      "line 4: ModuleNotFoundError: No module named 'google.generativeai'",
      "ModuleNotFoundError: No module named 'google.generativeai' (the package is google-generativeai)",
    ],
  ];
  for (const [q, title] of quotes) {
    it(q, async () => {
      const a = await ask(q);
      expect(a.j.match).toBe('near');
      expect(fixOf(a)).toBe(title);
    });
  }
});

describe('key lines', () => {
  it('wrapper lines never lead: each documented wrapper is recognized, an error line is not', () => {
    const examples = [
      "error: failed to push some refs to 'https://example.com/o/r.git'",
      "error: external filter 'git-lfs filter-process' failed",
      'npm ERR! A complete log of this run can be found in: /home/u/.npm/_logs/x.log',
      '[ERROR] Some problems were encountered while processing the POMs:',
      'FAILURE: Build failed with an exception.',
      'Error: Process completed with exit code 1.',
      'make: *** [Makefile:12: build] Error 1',
      "Unable to find image 'redis:7' locally",
      'user@box:~/proj$ npm test',
      'NAME                     READY   STATUS             RESTARTS   AGE',
      'exit status 1',
      'Aborted (core dumped)',
      'clang: error: linker command failed with exit code 1 (use -v to see invocation)',
      'collect2: error: ld returned 1 exit status',
      '==================================== ERRORS ====================================',
      'Failed to compile.',
      'Found 3 errors.',
      'Failures:',
      'Error making API request.',
      'nginx: configuration file /etc/nginx/nginx.conf test failed',
      'Gem::Ext::BuildError: ERROR: Failed to build gem native extension.',
      '*** extconf.rb failed ***',
      "Could not resolve all files for configuration ':app:compileClasspath'.",
      "Execution failed for task ':app:mergeDebugResources'.",
      "Could not determine the dependencies of task ':web:compileJava'.",
      'CMake Error at CMakeLists.txt (project):',
      '-- Configuring incomplete, errors occurred!',
      '1 warning found (use docker --debug to expand):',
      'ERROR: (gcloud.compute.instances.create) Could not fetch resource:',
      'HTTP 422: Validation Failed (https://api.github.com/repos/o/r/releases)',
      '😄  minikube v1.32.0 on Ubuntu 22.04',
      'Watching for file changes with StatReloader',
      '[+] Building 12.3s (7/9) FINISHED',
      '➤ YN0000: ┌ Resolution step',
      '10.0.0.7 - - [12/Mar/2026 10:00:01] "POST /api HTTP/1.1" 500 -',
      '/home/runner/work/app/app/src/main.rs',
      'https://example.com/docs/errors#e42',
      'LogicException',
      'Symfony\\Component\\Console\\Exception\\RuntimeException',
      'pydantic_core._pydantic_core.ValidationError: 2 validation errors for Settings',
      "Failed executing DbCommand (14ms) [Parameters=[], CommandType='Text', CommandTimeout='30']",
      'Status:         Failed',
      "errors in crontab file, can't install.",
      'Do you want to retry the same edit? (y/n)',
      'django.core.management.base.SystemCheckError: System check identified some issues:',
      'Hold on, I am eager loading the application.',
      'Installing dependencies from lock file (including require-dev)',
      "src/report.c: In function 'print_row':",
      "lib/vec.cpp: In member function 'void Vec::push(int)':",
      'src/a.c: At top level:',
      'In ParameterBag.php line 93:',
      'Your lock file does not contain a compatible set of packages. Please run composer update.',
      'Your requirements could not be resolved to an installable set of packages.',
      'Problem 1',
      'ERROR: process "/bin/sh -c make -j4" did not complete successfully: exit code: 2',
      '_______________________ ERROR at setup of test_login ________________________',
      '_________________________________ test_slug __________________________________',
      "Build step 'Execute shell' marked build as failure",
      'Finished: FAILURE',
      'Exception Location: /usr/lib/python3.12/site-packages/django/urls/base.py, line 88, in reverse',
    ];
    for (const e of examples) expect(isWrapper(e), e).toBe(true);
    // isWrapper tests WRAPPERS as two joined expressions: the same verdict as one by one, on lines of every kind.
    const one = (l: string) => WRAPPERS.some((w) => w.test(l.trim()));
    for (const l of [
      ...examples,
      ...examples.map((e) => e.toUpperCase()),
      ...examples.map((e) => `x ${e}`),
      'aborted',
      'name ready status',
      '  exit status 1  ',
    ])
      expect(isWrapper(l), l).toBe(one(l));
    expect(WRAPPERS.length).toBeGreaterThanOrEqual(examples.length);
    for (const e of [
      "ModuleNotFoundError: No module named 'x'",
      'error[E0382]: borrow of moved value: `v`',
      ' ! [rejected]        main -> main (non-fast-forward)',
      'java.lang.NullPointerException',
      'Illuminate\\Database\\Eloquent\\ModelNotFoundException',
    ])
      expect(isWrapper(e), e).toBe(false);
  });

  it('an output with only wrapper lines to go by: its other lines are key lines, the wrapper is never claimed', async () => {
    // The message says no "error" word, the last line is a wrapper: the message still leads.
    const keys = keyLines(
      '2026/11/12 09:00:00 did not connect: grpc: no transport security set (use grpc.WithTransportCredentials(insecure.NewCredentials()) explicitly or set credentials)\nexit status 1',
    );
    expect(keys[0]!.wrapper).toBe(true);
    expect(keys.some((k) => !k.wrapper && k.sig.includes('no transport security set'))).toBe(true);
    // A wrapper alone names entries (if any) but gives no fix.
    for (const text of ['exit status 1', 'Aborted (core dumped)']) {
      const a = await ask(text);
      expect(fixOf(a), text).toBeNull();
    }
  });

  it('a line ErrSig chose that states no error (a prompt, a command) does not stop the lines under it from being read', async () => {
    const sudo = '[sudo] password for dana:\ndana is not in the sudoers file.  This incident will be reported.';
    expect(keyLines(sudo).some((k) => k.sig.includes('is not in the sudoers file'))).toBe(true);
    expect(fixOf(await ask(sudo))).toMatch(/^sudo: user is not in the sudoers file/);
    const nologin = "ssh deploy@web3\ndeploy@web3's password:\nThis account is currently not available.\nConnection to web3 closed.";
    expect(fixOf(await ask(nologin))).toMatch(/^ssh: This account is currently not available/);
  });

  it("a one-line quote with the asker's remark on it is also read without the remark", async () => {
    const jose = "ModuleNotFoundError: No module named 'jose' (python-jose, fastapi login example)";
    expect(keyLines(jose).map((k) => k.sig)).toContain("py:ModuleNotFoundError: No module named 'jose'");
    expect(fixOf(await ask(jose))).toMatch(/^ModuleNotFoundError: No module named 'jose'/);
    expect(fixOf(await ask('sqlite3.OperationalError: database is locked (two gunicorn workers writing)'))).toMatch(/database is locked/);
  });

  it('a capitalised word is no error code: `ERROR 2005 (HY000)` and a PDO quote of the same error agree', async () => {
    expect([...codesOf('sql:ERROR 2005 (HY000): Unknown MySQL server host <s> (-<n>)')]).toEqual([]);
    expect([...codesOf('node:Error: ENOENT: no such file or directory')]).toEqual(['ENOENT']);
    expect(fixOf(await ask("SQLSTATE[HY000] [2005] Unknown MySQL server host 'db' (-2)"))).toMatch(/^MySQL ERROR 2005: Unknown MySQL server host/);
  });

  it('codes of one kind contradict each other; an exception class and an errno code do not', async () => {
    expect(
      keySim('other:SemanticReleaseError: No GitHub token specified. code: <s>', 'other:[semantic-release] › ✘ ENOGHTOKEN No GitHub token specified.'),
    ).toBeGreaterThan(0.5);
    expect(keySim('node:Error: ENOENT: no such file, open <path>', 'node:Error: EACCES: permission denied, open <path>')).toBeLessThan(0.3);
    expect(fixOf(await ask("SemanticReleaseError: No GitHub token specified. code: 'ENOGHTOKEN'"))).toMatch(/^semantic-release: ENOGHTOKEN/);
  });

  it('a candidate under the key-line floor is near when sure is SURE_PAST_FLOORS or more', async () => {
    // The quote is the start of the entry's long key line: little Dice agreement, every other agreement.
    const a = await ask("AADSTS90002: Tenant '9f3c2a1e-4b5d-4e6f-8a7b-1c2d3e4f5a6b' not found.");
    expect(a.j.match).toBe('near');
    expect(fixOf(a)).toMatch(/^Entra ID AADSTS90002: Tenant not found/);
  });

  it("under the floors, a quote of an entry's whole key line is near from sure 0.92 (SURE_PAST_FLOORS)", async () => {
    // Express's whole message, other path: the title read as a key line agrees; sure reads 0.92.
    const a = await ask('Cannot GET /api/v2/orders');
    expect(a.j.match).toBe('near');
    expect(fixOf(a)).toMatch(/^Express: Cannot GET \//);
  });

  it('a candidate of the same code and template (coarse) is claimed from sure 0.85 (SURE_COARSE)', async () => {
    // Other names in the same template: sure reads 0.86-0.89, under SURE (0.91).
    const self = await ask('TypeError: Account.deposit() takes 1 positional argument but 2 were given');
    expect(self.j.match).toBe('near');
    expect(fixOf(self)).toMatch(/^TypeError: takes 1 positional argument but 2 were given \(missing self\)/);
    const smtpd = await ask("ModuleNotFoundError: No module named 'smtpd'");
    expect(smtpd.j.match).toBe('near');
    expect(fixOf(smtpd)).toMatch(/^Python 3\.12: No module named 'asyncore'/);
  });

  it('a candidate of confidence RELATED_MIN (0.35) or more is named as related, not a 404', async () => {
    // Agreement about 0.44: a 404 under the bar before (0.45); the entry is the right one to look at.
    const a = await ask('dlopen: ./plugins/libaudio.so: undefined symbol: _ZN6Engine4tickEv');
    expect(a.status).toBe(200);
    expect(a.j.match).toBe('related');
    expect(fixOf(a)).toBeNull();
    expect(namedOf(a)[0]).toMatch(/^dlopen: undefined symbol in plugin/);
  });

  it('a header whose error is on the lines under it claims no entry filed under it', async () => {
    // Laravel's console prints a generic class alone, then the message; the KB holds another LogicException.
    const laravel = '$ php artisan queue:work\n\n   LogicException \n\n  Queue connection [sqs-fifo] has no worker configured for this host.';
    expect(fixOf(await ask(laravel))).toBeNull();
    // The miss is shown and wanted under the line that states the error, not under the header.
    const miss = await fetch(`${s.url}/e`, { method: 'POST', body: laravel, headers: { 'content-type': 'text/plain' } });
    expect(miss.status).toBe(404);
    expect(await miss.text()).toMatch(/^err notfound no fix yet for other:Queue connection \[sqs-fifo\] has no worker configured/);
    const wanted = await (await fetch(`${s.url}/wanted`)).text();
    expect(wanted).toMatch(/Queue connection \[sqs-fifo\] has no worker configured/);
    expect(wanted).not.toMatch(/other:LogicException\b/);
    // Under log prefixes, the header signed with its prefix on is the same header: the error line is shown.
    const stamped = await fetch(`${s.url}/e?f=json`, {
      method: 'POST',
      body: '[2026-11-29 10:00:01] LogicException\n[2026-11-29 10:00:01] Queue connection [sqs-fifo] has no worker configured for this host.',
      headers: { 'content-type': 'text/plain' },
    });
    expect(stamped.status).toBe(404);
    expect(await stamped.text()).toMatch(/no fix yet for other:Queue connection \[sqs-fifo\]/);
    // pydantic's detail line (`[type=…]`) states the error under its count line.
    const pyd =
      "pydantic_core._pydantic_core.ValidationError: 1 validation error for Invoice\ntotal\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='12.50 EUR', input_type=str]";
    expect(keyLines(pyd).some((k) => k.sig.includes('[type=int_parsing'))).toBe(true);
    // Django's system check lists its errors under the header, each with its check id.
    const check =
      'SystemCheckError: System check identified some issues:\n\nERRORS:\n?: (staticfiles.E002) The STATICFILES_DIRS setting should not contain the STATIC_ROOT setting.';
    expect(keyLines(check)[0]!.wrapper).toBe(true);
    expect(keyLines(check).some((k) => k.sig.includes('(staticfiles.E002)'))).toBe(true);
  });

  it("a long line is read by its start; a header over it (Symfony's `In X.php line N:`) claims nothing", async () => {
    // Doctrine's message runs past 400 characters: it was never signed, so only the header was left.
    const doctrine =
      'In DBALException.php line 71:\n\n  Unknown column type "citext" requested. Any Doctrine type that you use has to be registered with \\Doctrine\\DBAL\\Types\\Type::addType(). You can get a list of all the known types with \\Doctrine\\DBAL\\Types\\Type::getTypesMap(). If this error occurs during database introspection then you might have forgotten to register all database types for a Doctrine Type.';
    expect(fixOf(await ask(doctrine))).toMatch(/^Doctrine DBAL: Unknown column type requested/);
    // Composer's header names the lock file; the problem under it is the error.
    const composer =
      "$ composer install --no-dev\nInstalling dependencies from lock file\nYour lock file does not contain a compatible set of packages. Please run composer update.\n\n  Problem 1\n    - Root composer.json requires PHP extension ext-bcmath * but it is missing from your system. Install or enable PHP's bcmath extension.";
    expect(fixOf(await ask(composer))).toMatch(/^Composer: requires ext-/);
  });

  it("a compiler's source excerpt is no key line; a -W diagnostic states an error; more values named rank higher", async () => {
    const gcc =
      "lib/util.c: In function 'dump':\nlib/util.c:40:12: warning: format '%d' expects argument of type 'int', but argument 3 has type 'size_t' [-Wformat=]\n   40 |   printf(\"%s %d\\n\", name, n);\n      |           ~^\n      |            |\n      |            int";
    const keys = keyLines(gcc);
    expect(keys.some((k) => /\| /.test(k.sig))).toBe(false);
    expect(keys.some((k) => k.errorish && k.sig.includes("has type 'size_t' [-Wformat=]"))).toBe(true);
    // The printf entry names '%d', 'int' and 'size_t'; the scanf one only '%d' and 'int'.
    expect(namedOf(await ask(gcc))[0]).toMatch(/^C: format '%d' expects argument of type 'int' but has type 'long' or 'size_t'/);
  });

  it("BuildKit's failed-step line under a step number is a wrapper: the step's own error leads", async () => {
    const log =
      '#9 [runner 3/4] RUN node scripts/prebuild.js\n#9 0.412 node:internal/modules/cjs/loader:1228\n#9 0.412   throw err;\n#9 0.413 Error: Cannot find module \'dotenv\'\n#9 0.413 Require stack:\n#9 0.413 - /srv/app/scripts/prebuild.js\n#9 ERROR: process "/bin/sh -c node scripts/prebuild.js" did not complete successfully: exit code: 1\n------\n > [runner 3/4] RUN node scripts/prebuild.js:\n------';
    expect(keyLines(log).some((k) => !k.wrapper && k.sig.includes('did not complete successfully'))).toBe(false);
    expect(namedOf(await ask(log))[0]).toMatch(/^Error: Cannot find module /);
  });

  it('more words state an error: not loaded, not recognized, not registered, not configured, is not a valid, is required', () => {
    for (const line of [
      'dyld[4242]: Library not loaded: @rpath/libfoo.dylib',
      "npx : The term 'npx' is not recognized as the name of a cmdlet, function, script file, or operable program.",
      'Route [dashboard] not registered',
      'The current testing environment is not configured to support act(...)',
      "'2026-13-01' is not a valid date",
      'Full authentication is required to access this resource.',
    ])
      expect(
        keyLines(`$ run\n${line}\ndone`).some((k) => k.errorish && k.sig.includes(line.split(' ')[1]!)),
        line,
      ).toBe(true);
  });

  it('.NET SDK codes are codes: NETSDK1047 is not NETSDK1005', async () => {
    expect([...codesOf("other:error NETSDK1047: Assets file <path> doesn't have a target for 'net8.0/linux-x64'.")]).toEqual(['NETSDK1047']);
    const a = await ask(
      "C:\\src\\Api\\Api.csproj : error NETSDK1047: Assets file 'C:\\src\\Api\\obj\\project.assets.json' doesn't have a target for 'net8.0/linux-x64'.",
    );
    expect(namedOf(a)[0]).toMatch(/^NETSDK1047: /);
  });

  it('log prefixes come off every line; the key lines are the error lines, the cause last in the log first', () => {
    expect(unprefixed('2026-11-28T09:00:01.123Z npm ERR! code E404\n#12 0.532 ERROR: x\n[2026-11-28T09:00:02Z] fatal: y')).toBe(
      'npm ERR! code E404\nERROR: x\nfatal: y',
    );
    // A BuildKit step's empty line is its prefix alone: nothing of it is left to sign.
    expect(unprefixed('#6 2.421\n#6 2.436     Details:\n#6 2.526')).toBe('\nDetails:\n');
    // BuildKit's step number alone, before a step's own ERROR line.
    expect(unprefixed('#13 ERROR: process "/bin/sh -c make" did not complete successfully: exit code: 2\n#13 2.5 x')).toBe(
      'ERROR: process "/bin/sh -c make" did not complete successfully: exit code: 2\nx',
    );
    const keys = keyLines(
      'user@box:~/proj$ python3 run.py\nTraceback (most recent call last):\n  File "run.py", line 1, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'',
    );
    expect(keys[0]!.sig).toBe("py:ModuleNotFoundError: No module named 'yaml'");
  });
});

describe('every face names the same entries in the same order', () => {
  const texts = [
    'Traceback (most recent call last):\n  File "/home/u/app/x.py", line 2, in <module>\n    import requests\nModuleNotFoundError: No module named \'requests\'',
    'ssh: connect to host backup.lan port 2222: Connection refused',
    "ModuleNotFoundError: No module named 'zzqgadgets'",
  ];
  it('POST /e, GET /e/{msg}, MCP kb_e, A2A kb.e and the kb section of /brief', async () => {
    const c03 = await client03(`${s.url}/.well-known/agent.json`);
    for (const text of texts) {
      const rest = (await ask(text)).j;
      const ids = [...rest.entries, ...rest.related].map((e: Json) => e.id);
      expect(ids.length).toBeGreaterThan(0);
      const page = (await (await fetch(`${s.url}/e/${encodeURIComponent(text)}?f=json`)).json()) as Json;
      expect([...page.entries, ...page.related].map((e: Json) => e.id)).toEqual(ids);
      expect(page.match).toBe(rest.match);
      const m = (await mcp.callTool({ name: 'kb_e', arguments: { text } })) as { structuredContent: Json };
      expect([...m.structuredContent.entries, ...m.structuredContent.related].map((e: Json) => e.id)).toEqual(ids);
      expect(m.structuredContent.match).toBe(rest.match);
      const a = (await c03.sendMessage({ message: msg03([data03({ skill: 'kb.e', input: { text } })]) as never, configuration: { blocking: true } })) as Json;
      const data = a.result.artifacts[0].parts[1].data;
      expect([...data.entries, ...data.related].map((e: Json) => e.id)).toEqual(ids);
      expect(data.match).toBe(rest.match);
      const brief = await (await fetch(`${s.url}/brief?q=${encodeURIComponent(text)}`)).text();
      const kbSection = brief
        .split('\nkb:\n')[1]!
        .split('\n\n')[0]!
        .split('\n')
        .filter((l) => l.startsWith('k/'))
        .map((l) => l.slice(2).split(' ')[0]);
      // The brief fits a token budget: it may show fewer, never others or in another order.
      const n = Math.min(ids.length, kbSection.length);
      expect(n).toBeGreaterThan(0);
      expect(kbSection.slice(0, n)).toEqual(ids.slice(0, n));
    }
  }, 60_000);
});
