// The code of one runner process, run as `node -e` (CommonJS) under an OS memory cap, so it runs the
// same under plain node, tsx and vitest and needs no file on disk. It talks to the server over the
// IPC channel only. It compiles modules once (cached by hash, the server says which to drop), and
// runs every call on a FRESH Extism plugin instance: no state survives from one caller's call to the
// next (no leak between callers, and replicas of a call on different donors see the same start
// state). Whatever a module does here (V8 out of memory, an abort), only this process dies; the
// server kills it at the wall-clock limit. No WASI, no allowed paths, no allowed hosts.
//
// Extism's host `alloc` allocates a block before it checks its page limit and keeps it after
// refusing, so a module could make the host hold gigabytes. The host functions are wrapped where
// Extism hands them to WebAssembly.instantiate: `alloc` counts the live bytes first and traps past
// the call's cap, `free` gives them back.

export const WORKER_CODE = String.raw`
const { createPlugin } = require(process.env.CX_EXTISM);
const HOST_NS = 'extism:host/env';
const modules = new Map();
const post = (m) => { try { process.send(m); } catch {} };
let hostCap = 0;

const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = function (mod, imports) {
  const env = imports && imports[HOST_NS];
  if (env && typeof env.alloc === 'function') {
    const alloc = env.alloc, free = env.free;
    const cap = hostCap;
    const held = new Map();
    let live = 0;
    env.alloc = (n) => {
      const size = Number(n);
      if (!(size >= 0) || live + size > cap) throw new Error('host alloc of ' + size + ' bytes over the cap of ' + cap + ' bytes (' + live + ' held)');
      // Counted even when Extism answers 0 (over its page limit): it keeps that block all the same.
      live += size;
      const addr = alloc(n);
      if (addr !== 0n) held.set(addr, size);
      return addr;
    };
    if (typeof free === 'function') env.free = (addr) => {
      free(addr);
      const size = held.get(addr);
      if (size !== undefined) { held.delete(addr); live -= size; }
    };
  }
  return instantiate.apply(this, arguments);
};

process.on('message', (m) => { handle(m).catch((e) => post({ id: m.id, ok: false, code: 'trap', detail: 'runner: ' + String(e && e.message || e).slice(0, 120) })); });
process.on('disconnect', () => process.exit(0));
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
  hostCap = m.hostBytes;
  try {
    plugin = await createPlugin({ wasm: [{ module: mod }] }, {
      useWasi: false, allowedHosts: [], allowedPaths: {}, config: {}, logger, logLevel: 'error',
      memory: { maxPages: m.hostPages, maxVarBytes: m.varBytes, maxHttpResponseBytes: 0 },
    });
  } catch (e) {
    return post({ id: m.id, ok: false, code: 'bad', detail: 'does not load: ' + String(e && e.message || e).slice(0, 120) });
  }
  try {
    post({ id: m.id, started: true });
    const out = await plugin.call(m.entry, m.input);
    const bytes = out ? out.bytes() : new Uint8Array(0);
    if (bytes.length > m.outBytes) return post({ id: m.id, ok: false, code: 'output', detail: 'output of ' + bytes.length + ' bytes over the cap of ' + m.outBytes });
    post({ id: m.id, ok: true, output: bytes.slice() });
  } catch (e) {
    const msg = String(e && e.message || e).slice(0, 160);
    // One block over the output cap is an output that cannot be answered; many smaller ones are
    // host memory the module tried to hoard.
    const big = /^host alloc of (\d+) bytes/.exec(msg);
    if (big && Number(big[1]) > m.outBytes) return post({ id: m.id, ok: false, code: 'output', detail: 'output of ' + big[1] + ' bytes over the cap of ' + m.outBytes });
    if (big) return post({ id: m.id, ok: false, code: 'memory', detail: msg });
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
    post({ id: m.id, ok: false, code: 'trap', detail: msg.slice(0, 120) });
  } finally {
    plugin.close().catch(() => {});
  }
}
`;
