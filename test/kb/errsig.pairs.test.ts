// ErrSig v1 on real-world pairs: two outputs of one error that differ only in volatile parts
// (paths, line numbers, addresses, timestamps, ids, ports, temp dirs, user names, tool versions)
// must give one signature; different errors, near misses included, must give different ones.
// Both implementations are run on every input.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errsig } from '../../src/core/kb/errsig/errsig.js';

const PY = fileURLToPath(new URL('../../src/core/kb/errsig/errsig.py', import.meta.url));
const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('errsig', sys.argv[1])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
sys.stdout.write(json.dumps([list(m.errsig(t)) for t in json.loads(sys.stdin.buffer.read().decode('utf-8'))]))
`;
function py(inputs: string[]): [string, string][] {
  const r = spawnSync('python3', ['-B', '-c', DRIVER, PY], { input: JSON.stringify(inputs), maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error('python3 failed: ' + r.stderr.toString());
  return JSON.parse(r.stdout.toString());
}

const E = '\x1b';
const pyTb = (frames: [string, number, string, string][], last: string) =>
  'Traceback (most recent call last):\n' + frames.map(([f, l, fn, code]) => `  File "${f}", line ${l}, in ${fn}\n    ${code}`).join('\n') + '\n' + last;
const nodeStack = (hdr: string, file: string, l: number, c: number, v: string) =>
  `${file}:${l}\n    x();\n    ^\n\n${hdr}\n    at Object.<anonymous> (${file}:${l}:${c})\n    at Module._compile (node:internal/modules/cjs/loader:${1000 + l}:14)\n\nNode.js ${v}`;
const SAME: [string, string, string][] = [
  [
    'py missing module, two machines',
    pyTb([['/home/alice/proj/app.py', 3, '<module>', 'import requests']], "ModuleNotFoundError: No module named 'requests'"),
    pyTb(
      [
        ['/Users/bob/Code/tool/cli.py', 41, 'main', 'import requests'],
        ['/Users/bob/Code/tool/run.py', 2, '<module>', 'main()'],
      ],
      "ModuleNotFoundError: No module named 'requests'",
    ),
  ],
  [
    'py import name, windows vs linux site-packages',
    pyTb(
      [['C:\\Users\\Bob\\api\\app.py', 2, '<module>', 'from jinja2 import escape']],
      "ImportError: cannot import name 'escape' from 'jinja2' (C:\\Users\\Bob\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages\\jinja2\\__init__.py)",
    ),
    pyTb(
      [['/srv/api/app.py', 5, '<module>', 'from jinja2 import escape']],
      "ImportError: cannot import name 'escape' from 'jinja2' (/home/deploy/.venv/lib/python3.12/site-packages/jinja2/__init__.py)",
    ),
  ],
  [
    'py NoneType attribute, different files',
    pyTb([['/app/parse.py', 10, 'parse', 'm.group(1)']], "AttributeError: 'NoneType' object has no attribute 'group'"),
    pyTb([['/work/x/y.py', 77, 'run', 'match.group(2)']], "AttributeError: 'NoneType' object has no attribute 'group'"),
  ],
  [
    'py file not found, windows vs posix temp paths',
    "FileNotFoundError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\Bob\\\\AppData\\\\Local\\\\Temp\\\\tmpa81x\\\\data.csv'",
    "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpq9z3kd/data.csv'",
  ],
  [
    'py connection refused, different ports and urls',
    pyTb(
      [['/app/c.py', 3, '<module>', 'requests.get(u)']],
      "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /api/v1/items?page=2 (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3b2c1d9e50>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    ),
    pyTb(
      [['/srv/c.py', 9, 'fetch', 'requests.get(u)']],
      "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=5000): Max retries exceeded with url: /health (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x10a2b3c40>: Failed to establish a new connection: [Errno 111] Connection refused'))",
    ),
  ],
  [
    'pytest vs plain traceback of the same error',
    '    def test_divide():\n>       assert divide(1, 0) == 0\n\ntests/test_calc.py:5:\nE       ZeroDivisionError: division by zero\n\ncalc.py:2: ZeroDivisionError\nFAILED tests/test_calc.py::test_divide - ZeroDivisionError: division by zero',
    pyTb([['/home/u/calc.py', 2, 'divide', 'return a / b']], 'ZeroDivisionError: division by zero'),
  ],
  [
    'node undefined map, different paths and versions',
    nodeStack("TypeError: Cannot read properties of undefined (reading 'map')", '/home/u/app/src/index.js', 14, 25, 'v20.11.0'),
    nodeStack("TypeError: Cannot read properties of undefined (reading 'map')", 'C:\\Users\\Ann\\web\\lib\\list.js', 3, 9, 'v18.19.1'),
  ],
  [
    'node cannot find module, different require stacks',
    "node:internal/modules/cjs/loader:1080\n  throw err;\n  ^\n\nError: Cannot find module 'express'\nRequire stack:\n- /Users/carol/code/shop/server.js\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)\n\nNode.js v18.19.0",
    "node:internal/modules/cjs/loader:1148\n  throw err;\n  ^\n\nError: Cannot find module 'express'\nRequire stack:\n- /app/dist/main.js\n- /app/dist/index.js\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)\n\nNode.js v20.12.2",
  ],
  [
    'node EADDRINUSE, different ports',
    'Error: listen EADDRINUSE: address already in use :::3000\n    at Server.setupListenHandle [as _listen2] (node:net:1817:16)',
    'Error: listen EADDRINUSE: address already in use :::8080\n    at Server.setupListenHandle [as _listen2] (node:net:1872:16)',
  ],
  [
    'node ECONNREFUSED, IPv6 localhost vs IPv4',
    'Error: connect ECONNREFUSED ::1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
    'Error: connect ECONNREFUSED 127.0.0.1:5433\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)',
  ],
  [
    'node fetch failed with cause, different ports',
    'TypeError: fetch failed\n    at node:internal/deps/undici/undici:12345:11 {\n  [cause]: Error: connect ECONNREFUSED 127.0.0.1:11434\n      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)\n}',
    'TypeError: fetch failed\n    at Object.fetch (node:internal/deps/undici/undici:11576:11)\n    at async run (file:///srv/bot/run.mjs:3:9) {\n  cause: undefined,\n  [cause]: Error: connect ECONNREFUSED 10.1.2.3:8080\n      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1494:16)\n}',
  ],
  [
    'tsc pretty vs plain format',
    "src/server.ts:12:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n\n12   let port: number = process.env.PORT;\n         ~~~~\n\nFound 1 error in src/server.ts:12",
    "lib/config.ts(3,14): error TS2322: Type 'string' is not assignable to type 'number'.",
  ],
  [
    'rustc E0382, different variables and crates',
    '   Compiling demo v0.1.0 (/home/dev/demo)\nerror[E0382]: borrow of moved value: `names`\n --> src/main.rs:5:20\n\nerror: could not compile `demo` (bin "demo") due to 1 previous error',
    '   Compiling api v0.3.2 (C:\\src\\api)\nerror[E0382]: borrow of moved value: `cfg`\n  --> src\\server.rs:88:9\n\nerror: could not compile `api` (lib) due to 3 previous errors',
  ],
  [
    'rust unwrap None panic, rust 1.72 vs 1.73 format',
    "thread 'main' panicked at 'called `Option::unwrap()` on a `None` value', src/main.rs:4:37\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    "thread 'tokio-runtime-worker' panicked at src/worker.rs:120:18:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
  ],
  [
    'rust index out of bounds, different numbers',
    "thread 'main' panicked at src/main.rs:4:18:\nindex out of bounds: the len is 3 but the index is 7",
    "thread 'main' panicked at src/lib.rs:51:9:\nindex out of bounds: the len is 0 but the index is 0",
  ],
  [
    'go nil pointer, different addresses and paths',
    'panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2b3c]\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/dev/api/main.go:10 +0x25\nexit status 2',
    'panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x2 addr=0x18 pc=0x1029f4e80]\n\ngoroutine 23 [running]:\ngithub.com/acme/svc/internal/db.(*Store).Get(0x0, {0x140001a2000, 0x5})\n\t/Users/m/go/pkg/mod/github.com/acme/svc@v1.4.2/internal/db/store.go:77 +0x30',
  ],
  [
    'go index out of range, different values',
    'panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/x/main.go:8 +0x1d',
    'panic: runtime error: index out of range [12] with length 12\n\ngoroutine 7 [running]:\nmain.worker(0xc000012345)\n\t/src/app/w.go:33 +0x88',
  ],
  [
    'java NPE, different threads and lines',
    'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "<local1>" is null\n\tat com.example.App.main(App.java:7)',
    'Exception in thread "pool-2-thread-1" java.lang.NullPointerException: Cannot invoke "String.length()" because "<local4>" is null\n\tat org.acme.Job.run(Job.java:120)\n\tat java.base/java.lang.Thread.run(Thread.java:833)',
  ],
  [
    'java root cause behind different wrappers',
    'Exception in thread "main" org.springframework.beans.factory.BeanCreationException: Error creating bean with name \'dataSource\'\n\tat com.example.Application.main(Application.java:12)\nCaused by: org.postgresql.util.PSQLException: Connection to localhost:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:342)',
    'org.springframework.context.ApplicationContextException: Unable to start web server\n\tat org.springframework.boot.SpringApplication.run(SpringApplication.java:310)\nCaused by: org.postgresql.util.PSQLException: Connection to localhost:5433 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:319)\n\t... 42 more',
  ],
  [
    'maven cannot find symbol, different files',
    '[INFO] Compiling 12 source files\n[ERROR] /home/runner/work/shop/shop/src/main/java/com/shop/OrderService.java:[27,16] cannot find symbol\n[INFO] BUILD FAILURE',
    '[INFO] Compiling 3 source files\n[ERROR] C:\\build\\ws\\src\\main\\java\\App.java:[5,8] cannot find symbol\n[INFO] BUILD FAILURE',
  ],
  [
    'gcc missing header, different sources',
    'In file included from src/net.c:3:\nsrc/tls.h:1:10: fatal error: openssl/ssl.h: No such file or directory\n    1 | #include <openssl/ssl.h>\ncompilation terminated.',
    "build/temp.linux-x86_64-cpython-311/_cffi.c:570:10: fatal error: openssl/ssl.h: No such file or directory\ncompilation terminated.\nerror: command '/usr/bin/gcc' failed with exit code 1",
  ],
  [
    'linker undefined reference, different temp objects',
    "/usr/bin/ld: /tmp/ccQ2xYzA.o: in function `main':\ncalc.c:(.text+0x2c): undefined reference to `sqrt'\ncollect2: error: ld returned 1 exit status",
    "/usr/bin/ld: /tmp/cc8HbN1q.o: in function `area':\ngeo.c:(.text+0x51): undefined reference to `sqrt'\ncollect2: error: ld returned 1 exit status",
  ],
  [
    'npm E404, npm 9 vs npm 10',
    "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/reactt - Not found\nnpm ERR! 404\nnpm ERR! 404  'reactt@*' is not in this registry.\nnpm ERR! A complete log of this run can be found in:\nnpm ERR!     /home/u/.npm/_logs/2024-03-02T09_14_07_123Z-debug-0.log",
    "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/reactt - Not found\nnpm error 404\nnpm error 404  'reactt@^18.2.0' is not in this registry.\nnpm error A complete log of this run can be found in: C:\\Users\\kim\\AppData\\Local\\npm-cache\\_logs\\2025-01-07T11_02_33_019Z-debug-0.log",
  ],
  [
    'npm ENOENT package.json, different dirs',
    "npm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! path /home/erin/work/package.json\nnpm ERR! errno -2\nnpm ERR! enoent ENOENT: no such file or directory, open '/home/erin/work/package.json'",
    "npm error code ENOENT\nnpm error syscall open\nnpm error path C:\\Users\\Raj\\Desktop\\package.json\nnpm error errno -4058\nnpm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open 'C:\\Users\\Raj\\Desktop\\package.json'",
  ],
  [
    'pip no version, different candidate lists',
    'Collecting torch==1.13.1\nERROR: Could not find a version that satisfies the requirement torch==1.13.1 (from versions: 2.2.0, 2.2.1, 2.3.0)\nERROR: No matching distribution found for torch==1.13.1',
    'Collecting torch==1.12.0\nERROR: Could not find a version that satisfies the requirement torch==1.12.0 (from versions: 2.4.0, 2.4.1, 2.5.0, 2.5.1)\nERROR: No matching distribution found for torch==1.12.0',
  ],
  ['command not found in bash, zsh, dash and a script', 'bash: jq: command not found', 'zsh: command not found: jq'],
  ['command not found: dash vs script', 'sh: 1: jq: not found', './ci/release.sh: line 42: jq: command not found'],
  [
    'postgres relation missing, different tables and files',
    'psql:migrations/004_orders.sql:12: ERROR:  relation "customers" does not exist\nLINE 1: ALTER TABLE customers ADD COLUMN tier text;',
    'ERROR:  relation "public.invoices" does not exist\nLINE 1: SELECT * FROM public.invoices WHERE id = 42;\n                      ^',
  ],
  [
    'postgres unique violation, different constraints and values',
    'ERROR:  duplicate key value violates unique constraint "users_email_key"\nDETAIL:  Key (email)=(ana@example.com) already exists.',
    'ERROR:  duplicate key value violates unique constraint "orders_pkey"\nDETAIL:  Key (id)=(1017) already exists.',
  ],
  [
    'mysql access denied, different users and hosts',
    "ERROR 1045 (28000): Access denied for user 'app'@'172.18.0.5' (using password: YES)",
    "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
  ],
  [
    'sqlite no such table, CLI vs python driver',
    'Error: in prepare, no such table: sessions (1)',
    pyTb([['/app/db.py', 4, '<module>', "cur.execute('SELECT * FROM tokens')"]], 'sqlite3.OperationalError: no such table: tokens')
      .replace(/^[\s\S]*\n(sqlite3)/, '$1')
      .replace('sqlite3.OperationalError: ', 'Parse error: '),
  ],
  [
    'ANSI colours vs plain',
    `${E}[1m${E}[31merror[E0425]${E}[0m${E}[1m: cannot find value \`x\` in this scope${E}[0m\n ${E}[1m${E}[38;5;12m--> ${E}[0msrc/main.rs:2:13`,
    'error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:2:13',
  ],
  [
    'GitHub Actions log prefixes vs raw',
    '2024-05-14T08:31:09.1187764Z Traceback (most recent call last):\n2024-05-14T08:31:09.1190213Z   File "/home/runner/work/a/a/t.py", line 1, in <module>\n2024-05-14T08:31:09.1192011Z     import yaml\n2024-05-14T08:31:09.1199954Z ModuleNotFoundError: No module named \'yaml\'\n2024-05-14T08:31:09.2199954Z ##[error]Process completed with exit code 1.',
    'Traceback (most recent call last):\n  File "/Users/x/t.py", line 1, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'',
  ],
  [
    'timestamps, uuids and durations in a log line',
    '[2024-02-29 23:59:58,123] ERROR in app: Exception on /orders/9f1c2d3e-4b5a-6789-abcd-ef0123456789 [GET] request_id=7e3b9c1d-2a4f-4e6b-8c0d-1f2a3b4c5d6e took 1532ms',
    '[2025-10-01 04:05:06,999] ERROR in app: Exception on /orders/0b5f6a7c-1d2e-4f30-9a8b-7c6d5e4f3a2b [GET] request_id=c2d3e4f5-a6b7-4c8d-9e0f-a1b2c3d4e5f6 took 87ms',
  ],
  [
    'docker port allocated, different ids and ports',
    'docker: Error response from daemon: driver failed programming external connectivity on endpoint web-1 (8f2c1a9b3e4d5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8): Bind for 0.0.0.0:8080 failed: port is already allocated.',
    'docker: Error response from daemon: driver failed programming external connectivity on endpoint web-1 (0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9): Bind for 0.0.0.0:5432 failed: port is already allocated.',
  ],
  [
    'jest timeout, different durations',
    '  \u25cf api \u203a fetches users\n\n    thrown: "Exceeded timeout of 5000 ms for a test.\n    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."\n\n      at Object.<anonymous> (src/api.test.js:3:1)',
    '  \u25cf db \u203a migrates\n\n    thrown: "Exceeded timeout of 30000 ms for a test.\n    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."\n\n      at Object.<anonymous> (test/db.test.ts:10:3)',
  ],
  [
    'permission denied on temp paths, different users',
    "PermissionError: [Errno 13] Permission denied: '/tmp/pytest-of-runner/pytest-12/test_export0/out.json'",
    "PermissionError: [Errno 13] Permission denied: '/private/var/folders/7x/k2h_1b9n3_5d8q0000gn/T/pytest-of-mia/pytest-3/test_export0/out.json'",
  ],
  [
    'git auth failure, different repos',
    "fatal: unable to access 'https://github.com/acme/private-repo.git/': The requested URL returned error: 403",
    "fatal: unable to access 'https://gitlab.example.com/team/tools.git/': The requested URL returned error: 403",
  ],
  [
    'pip build backend failure, different versions and paths',
    'Collecting psycopg2==2.9.9\n  Downloading psycopg2-2.9.9.tar.gz (384 kB)\n  error: subprocess-exited-with-error\n\n  \u00d7 python setup.py egg_info did not run successfully.\n  \u2502 exit code: 1\n  \u2570\u2500> [23 lines of output]\n      running egg_info\n      creating /tmp/pip-pip-egg-info-x1y2z3/psycopg2.egg-info\n      Error: pg_config executable not found.\n      [end of output]',
    'Collecting psycopg2==2.9.6\n  Downloading psycopg2-2.9.6.tar.gz (383 kB)\n  error: subprocess-exited-with-error\n\n  \u00d7 python setup.py egg_info did not run successfully.\n  \u2502 exit code: 1\n  \u2570\u2500> [25 lines of output]\n      running egg_info\n      writing /private/var/folders/qq/T/pip-pip-egg-info-9kd/psycopg2.egg-info/PKG-INFO\n      Error: pg_config executable not found.\n      [end of output]',
  ],
  [
    'spring boot failure analyzer, different ports',
    "***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\nWeb server failed to start. Port 8080 was already in use.\n\nAction:\n\nIdentify and stop the process that's listening on port 8080.",
    "2024-03-01T10:00:00.000Z ERROR 4242 --- [main] o.s.b.d.LoggingFailureAnalysisReporter :\n\n***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\nWeb server failed to start. Port 9090 was already in use.\n\nAction:\n\nIdentify and stop the process that's listening on port 9090.",
  ],
  [
    'docker compose service prefix vs plain output',
    'api-1  | Error: connect ECONNREFUSED 172.18.0.2:5432\napi-1  |     at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
    'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)',
  ],
  [
    'eslint error, different files and positions',
    "/home/u/web/src/App.tsx\n  12:7  error  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars\n\n\u2716 1 problem (1 error, 0 warnings)",
    "C:\\dev\\site\\src\\App.tsx\n  3:11  error  'unused' is assigned a value but never used  @typescript-eslint/no-unused-vars\n\n\u2716 4 problems (1 error, 3 warnings)",
  ],

  // ErrSig v2: the names a template carries (variables, symbols, types, users) differ between two
  // people's copies of one error; the line that states the error is taken.
  [
    'v2 rustc E0502, different borrowed names',
    'error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable\n --> src/main.rs:4:5',
    '   Compiling api v0.2.0 (/srv/api)\nerror[E0502]: cannot borrow `self.sessions` as mutable because it is also borrowed as immutable\n  --> src/state.rs:77:13',
  ],
  [
    'v2 go undefined, different identifiers',
    '# example.com/api\n./main.go:15:9: undefined: handler',
    '# github.com/acme/tool\ncmd/root.go:88:2: undefined: cfg.Load',
  ],
  ['v2 go declared and not used, go 1.20+ and older', './main.go:7:2: declared and not used: result', './a/b.go:19:3: declared and not used: err2'],
  [
    'v2 tsc TS2322, different types',
    "src/config.ts:4:3 - error TS2322: Type 'string | undefined' is not assignable to type 'string'.",
    "src/models.ts(10,5): error TS2322: Type 'number' is not assignable to type 'Price'.",
  ],
  [
    'v2 javac incompatible types, different types',
    'App.java:12: error: incompatible types: String cannot be converted to int',
    'src/main/java/x/Y.java:40: error: incompatible types: List<Item> cannot be converted to Item[]',
  ],
  [
    'v2 java helpful NPE, different expressions',
    'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "<local1>" is null\n\tat A.main(A.java:7)',
    'Exception in thread "main" java.lang.NullPointerException: Cannot invoke "java.util.List.size()" because "items" is null\n\tat com.shop.Cart.total(Cart.java:31)',
  ],
  [
    'v2 JVM launcher, different main classes',
    'Error: Could not find or load main class com.example.App\nCaused by: java.lang.ClassNotFoundException: com.example.App',
    'Error: Could not find or load main class Main',
  ],
  [
    'v2 gcc undeclared, located vs one line',
    "main.c:5:5: error: 'count' undeclared (first use in this function)",
    "error: 'total' undeclared (first use in this function)",
  ],
  [
    'v2 mysql any-host user vs an address',
    "ERROR 1045 (28000): Access denied for user 'shop'@'%' (using password: YES)",
    "ERROR 1045 (28000): Access denied for user 'app'@'172.18.0.5' (using password: YES)",
  ],
  [
    'v2 docker socket, Get vs Post and old wording',
    'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json": dial unix /var/run/docker.sock: connect: permission denied',
    'Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post "http://%2Fvar%2Frun%2Fdocker.sock/v1.45/build?t=web": dial unix /var/run/docker.sock: connect: permission denied',
  ],
  [
    'v2 python 2 print, two suggestion forms',
    '  File "/a/r.py", line 14\n    print "total:", total\n    ^\nSyntaxError: Missing parentheses in call to \'print\'. Did you mean print(...)?',
    '  File "C:\\tools\\old.py", line 3\n    print "hi"\n    ^\nSyntaxError: Missing parentheses in call to \'print\'. Did you mean print("hi")?',
  ],
  [
    'v2 python NameError, different names',
    "Traceback (most recent call last):\n  File \"/app/a.py\", line 8, in <module>\nNameError: name 'totl' is not defined. Did you mean: 'total'?",
    "Traceback (most recent call last):\n  File \"/srv/b.py\", line 2, in run\nNameError: name 'pritn' is not defined. Did you mean: 'print'?",
  ],
  [
    'v2 webpack vs Next.js module not found',
    "ERROR in ./src/api.js 1:0-24\nModule not found: Error: Can't resolve 'axios' in '/home/kim/shop/src'\n\nwebpack compiled with 1 error",
    "Failed to compile.\n\n./app/page.tsx:2:0\nModule not found: Can't resolve 'axios'\n> 2 | import axios from 'axios'".replace(
      "Can't resolve 'axios'\n",
      "Can't resolve 'axios' in '/app/app'\n",
    ),
  ],
];
const DIFF: [string, string, string][] = [
  // v2 keeps the names that say which library is missing.
  [
    'v2 rustc unresolved import serde_json vs tokio',
    'error[E0432]: unresolved import `serde_json`\n --> src/main.rs:1:5',
    'error[E0432]: unresolved import `tokio`\n --> src/main.rs:1:5',
  ],
  ['v2 go panic one line vs nil map assignment with goroutine', 'panic: assignment to entry in nil map', 'panic: send on closed channel'],
  ['different missing python modules', "ModuleNotFoundError: No module named 'requests'", "ModuleNotFoundError: No module named 'numpy'"],
  [
    'rust E0382 vs E0499',
    'error[E0382]: borrow of moved value: `v`\n --> src/main.rs:4:20',
    'error[E0499]: cannot borrow `v` as mutable more than once at a time\n --> src/main.rs:4:20',
  ],
  [
    'tsc TS2322 vs TS2345',
    "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    "src/a.ts(3,7): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
  ],
  [
    'mysql 1045 vs 1044',
    "ERROR 1045 (28000): Access denied for user 'app'@'localhost' (using password: YES)",
    "ERROR 1044 (42000): Access denied for user 'app'@'localhost' to database 'shop'",
  ],
  [
    'postgres unique vs foreign key violation',
    'ERROR:  duplicate key value violates unique constraint "orders_pkey"',
    'ERROR:  insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"',
  ],
  [
    'npm E404 different packages',
    "npm ERR! code E404\nnpm ERR! 404  'reactt@*' is not in this registry.",
    "npm ERR! code E404\nnpm ERR! 404  'lodahs@*' is not in this registry.",
  ],
  [
    'npm E404 vs ETARGET',
    "npm ERR! code E404\nnpm ERR! 404  'react@99.0.0' is not in this registry.",
    'npm ERR! code ETARGET\nnpm ERR! notarget No matching version found for react@99.0.0.',
  ],
  [
    'node missing module express vs lodash',
    "Error: Cannot find module 'express'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)",
    "Error: Cannot find module 'lodash'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)",
  ],
  ['python subscript on None vs int', "TypeError: 'NoneType' object is not subscriptable", "TypeError: 'int' object is not subscriptable"],
  [
    'python KeyError different env vars',
    'Traceback (most recent call last):\n  File "/a.py", line 1, in <module>\nKeyError: \'OPENAI_API_KEY\'',
    'Traceback (most recent call last):\n  File "/a.py", line 1, in <module>\nKeyError: \'DATABASE_URL\'',
  ],
  [
    'rust unwrap on None vs on Err',
    "thread 'main' panicked at src/main.rs:4:37:\ncalled `Option::unwrap()` on a `None` value",
    "thread 'main' panicked at src/main.rs:4:37:\ncalled `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
  ],
  [
    'go nil pointer vs index out of range',
    'panic: runtime error: invalid memory address or nil pointer dereference\n\ngoroutine 1 [running]:',
    'panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:',
  ],
  ['go unused import os vs fmt', './main.go:8:2: "os" imported and not used', './main.go:8:2: "fmt" imported and not used'],
  [
    'java NPE vs array index',
    'Exception in thread "main" java.lang.NullPointerException\n\tat A.main(A.java:3)',
    'Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 3\n\tat A.main(A.java:3)',
  ],
  [
    'java root cause refused vs bad password',
    'Caused by: org.postgresql.util.PSQLException: Connection to localhost:5432 refused.\n\tat org.postgresql.Driver.connect(Driver.java:1)',
    'Caused by: org.postgresql.util.PSQLException: FATAL: password authentication failed for user "app"\n\tat org.postgresql.Driver.connect(Driver.java:1)',
  ],
  [
    'missing header openssl vs zlib',
    'src/a.c:1:10: fatal error: openssl/ssl.h: No such file or directory',
    'src/a.c:1:10: fatal error: zlib.h: No such file or directory',
  ],
  [
    'undefined reference sqrt vs pthread_create',
    "main.c:(.text+0x2c): undefined reference to `sqrt'",
    "main.c:(.text+0x2c): undefined reference to `pthread_create'",
  ],
  [
    'pip torch vs tensorflow',
    'ERROR: Could not find a version that satisfies the requirement torch==1.13.1 (from versions: none)\nERROR: No matching distribution found for torch==1.13.1',
    'ERROR: Could not find a version that satisfies the requirement tensorflow==2.15.0 (from versions: none)\nERROR: No matching distribution found for tensorflow==2.15.0',
  ],
  [
    'pip externally managed vs resolution impossible',
    'error: externally-managed-environment\n\n\u00d7 This environment is externally managed',
    'ERROR: Cannot install flask==1.0 and werkzeug==3.0 because these package versions have conflicting dependencies.\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/',
  ],
  ['command not found jq vs yq', 'bash: jq: command not found', 'bash: yq: command not found'],
  ['command not found vs permission denied', 'bash: ./deploy.sh: command not found', 'bash: ./deploy.sh: Permission denied'],
  ['postgres relation vs column missing', 'ERROR:  relation "users" does not exist', 'ERROR:  column "users" does not exist'],
  ['sqlite no such table vs no such column', 'Error: in prepare, no such table: users (1)', 'Error: in prepare, no such column: users (1)'],
  [
    'git 403 vs 404',
    "fatal: unable to access 'https://github.com/a/b.git/': The requested URL returned error: 403",
    "fatal: unable to access 'https://github.com/a/b.git/': The requested URL returned error: 404",
  ],
  [
    'exit status 1 vs 2',
    "subprocess.CalledProcessError: Command 'make' returned non-zero exit status 1.",
    "subprocess.CalledProcessError: Command 'make' returned non-zero exit status 2.",
  ],
  ['errno 98 vs 99 (same type)', 'OSError: [Errno 98] Address already in use', 'OSError: [Errno 99] Address already in use'],
  [
    'reading map vs length',
    "TypeError: Cannot read properties of undefined (reading 'map')\n    at f (/a.js:1:1)",
    "TypeError: Cannot read properties of undefined (reading 'length')\n    at f (/a.js:1:1)",
  ],
  [
    'ECONNREFUSED vs ETIMEDOUT',
    'Error: connect ECONNREFUSED 10.0.0.1:443\n    at TCPConnectWrap.afterConnect (node:net:1555:16)',
    'Error: connect ETIMEDOUT 10.0.0.1:443\n    at TCPConnectWrap.afterConnect (node:net:1555:16)',
  ],
  [
    'tsc TS2307 express vs react',
    "src/a.ts(1,21): error TS2307: Cannot find module 'express' or its corresponding type declarations.",
    "src/a.ts(1,21): error TS2307: Cannot find module 'react' or its corresponding type declarations.",
  ],
  [
    'JSON unexpected token < vs u',
    'SyntaxError: Unexpected token \'<\', "<!DOCTYPE "... is not valid JSON',
    'SyntaxError: Unexpected token \'u\', "undefined" is not valid JSON',
  ],
  [
    'docker port allocated vs image missing',
    'docker: Error response from daemon: driver failed programming external connectivity on endpoint web (abc123def4567): Bind for 0.0.0.0:80 failed: port is already allocated.',
    "docker: Error response from daemon: pull access denied for webb, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.",
  ],
  ['rust E0425 vs E0433', 'error[E0425]: cannot find value `x` in this scope', 'error[E0433]: failed to resolve: use of undeclared crate or module `x`'],
  [
    'npm ERESOLVE different peers',
    'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer react@"^16.8.0 || ^17.0.0" from react-beautiful-dnd@13.1.1',
    'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer eslint@"^8.0.0" from eslint-config-next@14.0.0',
  ],
  ['numpy float vs int alias', "AttributeError: module 'numpy' has no attribute 'float'.", "AttributeError: module 'numpy' has no attribute 'int'."],
  [
    'HTTP 401 vs 403',
    'requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://api.example.com/v1/x',
    'requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://api.example.com/v1/x',
  ],
  [
    'ERR_MODULE_NOT_FOUND vs ERR_REQUIRE_ESM',
    "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chalk' imported from /a/b.mjs\n    at new NodeError (node:internal/errors:405:5)",
    'Error [ERR_REQUIRE_ESM]: require() of ES Module /a/node_modules/chalk/source/index.js from /a/b.js not supported.\n    at Object.<anonymous> (/a/b.js:1:15)',
  ],
  [
    'same message, python vs node tag',
    'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\nTypeError: \'str\' object is not callable',
    "TypeError: 'str' object is not callable\n    at Object.<anonymous> (/a.js:1:1)",
  ],
  [
    'go module missing gorilla vs chi',
    'main.go:5:2: no required module provides package github.com/gorilla/mux; to add it:',
    'main.go:5:2: no required module provides package github.com/go-chi/chi/v5; to add it:',
  ],
  [
    'shared library libGL vs libssl',
    'ImportError: libGL.so.1: cannot open shared object file: No such file or directory',
    'ImportError: libssl.so.1.1: cannot open shared object file: No such file or directory',
  ],
  [
    'pip build backend: pg_config missing vs deprecated sklearn',
    '  error: subprocess-exited-with-error\n  \u2570\u2500> [23 lines of output]\n      running egg_info\n      Error: pg_config executable not found.\n      [end of output]',
    "  error: subprocess-exited-with-error\n  \u2570\u2500> [15 lines of output]\n      The 'sklearn' PyPI package is deprecated, use 'scikit-learn'\n      [end of output]",
  ],
  [
    'spring boot: port in use vs missing datasource url',
    'APPLICATION FAILED TO START\n\nDescription:\n\nWeb server failed to start. Port 8080 was already in use.',
    "APPLICATION FAILED TO START\n\nDescription:\n\nFailed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured.",
  ],
  [
    'undici fetch failed: connect timeout vs refused',
    'TypeError: fetch failed\n    at node:internal/deps/undici/undici:12345:11 {\n  cause: ConnectTimeoutError: Connect Timeout Error\n      at onConnectTimeout (node:internal/deps/undici/undici:7492:28)\n}',
    'TypeError: fetch failed\n    at node:internal/deps/undici/undici:12345:11 {\n  cause: Error: connect ECONNREFUSED ::1:3000\n      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)\n}',
  ],
  [
    'abort after double free vs after stack smashing',
    'free(): double free detected in tcache 2\nAborted (core dumped)',
    '*** stack smashing detected ***: terminated\nAborted (core dumped)',
  ],
  [
    'node-gyp: python missing vs make failed',
    'npm ERR! code 1\nnpm ERR! command failed\nnpm ERR! gyp info it worked if it ends with ok\nnpm ERR! gyp ERR! stack Error: Could not find any Python installation to use',
    'npm ERR! code 1\nnpm ERR! command failed\nnpm ERR! gyp info it worked if it ends with ok\nnpm ERR! gyp ERR! stack Error: `make` failed with exit code: 2',
  ],
];

describe('same error, volatile parts differ: one signature', () => {
  it(`has at least 30 real-world pairs`, () => expect(SAME.length).toBeGreaterThanOrEqual(30));
  for (const [name, a, b] of SAME) {
    it(name, () => {
      const x = errsig(a);
      expect(x.sig).not.toMatch(/^other:$/);
      expect(errsig(b)).toEqual(x);
    });
  }
});

describe('different errors, near misses included: different signatures', () => {
  it(`has at least 30 real-world pairs`, () => expect(DIFF.length).toBeGreaterThanOrEqual(30));
  for (const [name, a, b] of DIFF) {
    it(name, () => {
      const x = errsig(a);
      const y = errsig(b);
      expect(x.sig).not.toBe(y.sig);
      expect(x.h).not.toBe(y.h);
    });
  }
});

describe('Python gives the same results on every pair input', () => {
  it('agrees with JavaScript on all inputs of both pair sets', () => {
    const inputs = [...SAME, ...DIFF].flatMap(([, a, b]) => [a, b]);
    const out = py(inputs);
    expect(out).toHaveLength(inputs.length);
    inputs.forEach((t, i) => expect(out[i], JSON.stringify(t.slice(0, 80))).toEqual([errsig(t).sig, errsig(t).h]));
  });
});
