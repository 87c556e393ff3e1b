// The code of one runner worker, evaluated as a CommonJS script in a worker thread (`eval: true`),
// so it runs the same under plain node, tsx and vitest. It compiles modules once (cached by hash,
// the main thread says which to drop), and runs every call on a FRESH Extism plugin instance: no
// state survives from one caller's call to the next (no leak between callers, and replicas of a
// call on different donors see the same start state). Extism runs in the foreground of this worker
// (no nested worker); the main thread enforces the wall-clock limit by terminating the worker.
// No WASI, no allowed paths, no allowed hosts: the module reaches nothing but its input.

export const WORKER_CODE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { createPlugin } = require(workerData.module);
const modules = new Map();
const post = (m, transfer) => parentPort.postMessage(m, transfer || []);

parentPort.on('message', (m) => { handle(m).catch((e) => post({ id: m.id, ok: false, code: 'trap', detail: 'runner: ' + String(e && e.message || e).slice(0, 120) })); });
post({ ready: true });

async function handle(m) {
  for (const h of m.drop || []) modules.delete(h);
  let host = '';
  const logger = { trace() {}, debug() {}, info() {}, log() {}, warn() {}, error(s) { if (!host) host = String(s); } };
  let mod = modules.get(m.hash);
  if (!mod) {
    try {
      mod = await WebAssembly.compile(m.wasm);
    } catch (e) {
      return post({ id: m.id, ok: false, code: 'bad', detail: 'does not compile: ' + String(e && e.message || e).slice(0, 120) });
    }
    modules.set(m.hash, mod);
  }
  let plugin = null;
  try {
    plugin = await createPlugin({ wasm: [{ module: mod }] }, {
      useWasi: false, allowedHosts: [], allowedPaths: {}, config: {}, logger, logLevel: 'error',
      memory: { maxPages: m.hostPages, maxVarBytes: m.varBytes, maxHttpResponseBytes: 0 },
    });
  } catch (e) {
    return post({ id: m.id, ok: false, code: 'bad', detail: 'does not load: ' + String(e && e.message || e).slice(0, 120) });
  }
  try {
    const out = await plugin.call(m.entry, m.input);
    const bytes = out ? out.bytes() : new Uint8Array(0);
    if (bytes.length > m.outBytes) return post({ id: m.id, ok: false, code: 'output', detail: 'output of ' + bytes.length + ' bytes over the cap of ' + m.outBytes });
    const copy = bytes.slice();
    post({ id: m.id, ok: true, output: copy }, [copy.buffer]);
  } catch (e) {
    const msg = String(e && e.message || e).slice(0, 120);
    let pages = 0;
    try {
      const inst = await plugin.getInstance();
      for (const v of Object.values(inst.exports)) if (v instanceof WebAssembly.Memory) pages = Math.max(pages, v.buffer.byteLength / 65536);
    } catch {}
    // Host-side blocks (output, vars) over Extism's page limit: the output cap.
    if (/memory limit exceeded/.test(host)) return post({ id: m.id, ok: false, code: 'output', detail: 'output or vars over the cap' });
    // A trap with the module's memory grown to at least half the cap: it ran out of memory (a
    // failed memory.grow makes compiled allocators trap, e.g. AssemblyScript's unreachable).
    if (pages * 2 >= m.memPages || /out of memory|allocation/i.test(msg)) return post({ id: m.id, ok: false, code: 'memory', detail: 'memory cap of ' + m.memPages + ' pages reached (' + pages + ' in use)' });
    post({ id: m.id, ok: false, code: 'trap', detail: msg });
  } finally {
    plugin.close().catch(() => {});
  }
}
`;
