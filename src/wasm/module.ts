// Reads what a WebAssembly module declares (imports, exports, its memory and tables) without
// instantiating it, and rewrites the maxima of its memory and tables down to the caps. The runner
// loads only modules that passed here: functions imported from Extism's host namespace and nothing
// else (no WASI, no imported memory, no tables or globals from outside), one memory of its own, not
// shared, not 64-bit, at most compute.tables tables of at most compute.table_entries entries (a
// 60-byte module declaring a table of 10M funcrefs once took the whole server down).
import { limit } from '../core/kernel/limits.js';

export const PAGE = 64 * 1024;
const HOST_NS = 'extism:host/env';

export interface ModuleInfo {
  imports: Array<{ module: string; name: string; kind: number }>;
  exports: Array<{ name: string; kind: number }>;
  /** Declared pages of the module's own memory; `max` null when it declares none. */
  memory: { min: number; max: number | null } | null;
  /** The module's own tables (entries); `max` null when it declares none. */
  tables: Array<{ min: number; max: number | null }>;
}

/** The caps a module's declarations are held to (the limits table's by default). */
export interface ModuleCaps {
  /** Linear memory pages (the call's cap, or compute.mem_pages.max at upload). */
  memPages: number;
  tables: number;
  tableEntries: number;
}

export const defaultCaps = (memPages = limit('compute.mem_pages.max')): ModuleCaps => ({
  memPages,
  tables: limit('compute.tables'),
  tableEntries: limit('compute.table_entries'),
});

/** A module the runner refuses, with the reason (shown to the publisher as `err bad wasm: ...`). */
export class BadModule extends Error {}

class Reader {
  pos = 0;
  constructor(
    readonly b: Uint8Array,
    readonly end = b.length,
  ) {}
  byte(): number {
    if (this.pos >= this.end) throw new BadModule('truncated');
    return this.b[this.pos++]!;
  }
  u32(): number {
    let r = 0;
    let shift = 0;
    for (;;) {
      const x = this.byte();
      r += (x & 0x7f) * 2 ** shift;
      if (!(x & 0x80)) break;
      shift += 7;
      if (shift > 28) throw new BadModule('bad LEB128');
    }
    if (r > 0xffffffff) throw new BadModule('bad LEB128');
    return r;
  }
  name(): string {
    const n = this.u32();
    if (this.pos + n > this.end) throw new BadModule('truncated name');
    const s = Buffer.from(this.b.buffer, this.b.byteOffset + this.pos, n).toString('utf8');
    this.pos += n;
    return s;
  }
  limits(what: string): { min: number; max: number | null } {
    const flag = this.byte();
    if (flag > 1) throw new BadModule(what === 'table' ? 'table: 64-bit tables are not allowed' : `${what}: shared or 64-bit memory is not allowed`);
    const min = this.u32();
    return { min, max: flag === 1 ? this.u32() : null };
  }
}

const u32leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let x = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) x |= 0x80;
    out.push(x);
  } while (n);
  return out;
};

interface Section {
  id: number;
  start: number; // first byte of the payload
  end: number;
  head: number; // first byte of the section (its id)
}

function sections(b: Uint8Array): Section[] {
  if (b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) throw new BadModule('not a WebAssembly module');
  if (b[4] !== 1 || b[5] !== 0 || b[6] !== 0 || b[7] !== 0) throw new BadModule('unsupported binary version');
  const r = new Reader(b);
  r.pos = 8;
  const out: Section[] = [];
  while (r.pos < b.length) {
    const head = r.pos;
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    if (start + size > b.length) throw new BadModule('truncated section');
    // Custom sections (names, debug info) declare nothing that runs: skipped, not kept.
    if (id !== 0) out.push({ id, start, end: start + size, head });
    r.pos = start + size;
  }
  return out;
}

export function inspectModule(bytes: Uint8Array): ModuleInfo {
  const info: ModuleInfo = { imports: [], exports: [], memory: null, tables: [] };
  let memories = 0;
  for (const s of sections(bytes)) {
    const r = new Reader(bytes, s.end);
    r.pos = s.start;
    if (s.id === 2) {
      for (let n = r.u32(); n > 0; n--) {
        const module = r.name();
        const name = r.name();
        const kind = r.byte();
        if (kind === 0) r.u32();
        else if (kind === 1) {
          r.byte();
          r.limits('table');
        } else if (kind === 2) r.limits('memory');
        else if (kind === 3) {
          r.byte();
          r.byte();
        } else throw new BadModule(`unknown import kind ${kind}`);
        info.imports.push({ module, name, kind });
      }
    } else if (s.id === 4) {
      for (let n = r.u32(); n > 0; n--) {
        const type = r.byte();
        // 0x40 0x00: a table with an initializer expression (function references proposal).
        if (type === 0x40) throw new BadModule('table: initializer expressions are not supported');
        if (type !== 0x70 && type !== 0x6f) throw new BadModule(`table: unknown element type 0x${type.toString(16)}`);
        info.tables.push(r.limits('table'));
      }
    } else if (s.id === 5) {
      for (let n = r.u32(); n > 0; n--) {
        info.memory = r.limits('memory');
        memories++;
      }
    } else if (s.id === 7) {
      for (let n = r.u32(); n > 0; n--) {
        const name = r.name();
        const kind = r.byte();
        r.u32();
        info.exports.push({ name, kind });
      }
    }
  }
  if (memories > 1) throw new BadModule('more than one memory');
  return info;
}

/**
 * The size checks of upload, publication and loading: what a module declares at start must fit the
 * caps (a declared maximum over a cap, or none, is clamped at load: see clampModule).
 */
export function checkSizes(info: ModuleInfo, caps: ModuleCaps): void {
  if (info.memory && info.memory.min > caps.memPages)
    throw new BadModule(`memory declares ${info.memory.min} pages at start, over the cap of ${caps.memPages}`);
  if (info.tables.length > caps.tables) throw new BadModule(`declares ${info.tables.length} tables, over the cap of ${caps.tables}`);
  for (const t of info.tables)
    if (t.min > caps.tableEntries) throw new BadModule(`table declares ${t.min} entries at start, over the cap of ${caps.tableEntries}`);
}

/** The checks of publication and of loading; throws BadModule with the reason. */
export function checkModule(info: ModuleInfo, entry: string, maxPages: number, caps: ModuleCaps = defaultCaps(maxPages)): void {
  for (const i of info.imports) {
    if (i.kind === 2) throw new BadModule('imports its memory (a module must declare its own)');
    if (i.kind !== 0) throw new BadModule(`imports a table or global (${i.module}.${i.name})`);
    if (i.module !== HOST_NS) throw new BadModule(`imports ${i.module}.${i.name}: only ${HOST_NS} functions are provided (no WASI, no network)`);
  }
  if (!info.exports.some((e) => e.name === entry && e.kind === 0)) throw new BadModule(`no exported function ${entry}`);
  checkSizes(info, { ...caps, memPages: maxPages });
}

/**
 * The same module with its memory maximum set to min(declared, maxPages): the engine then refuses
 * any memory.grow past the cap (the grow returns -1 and the module traps or copes). A module that
 * declares a maximum within the cap is returned unchanged.
 */
export function clampMemory(bytes: Uint8Array, maxPages: number): Uint8Array {
  const mem = sections(bytes).find((s) => s.id === 5);
  if (!mem) return bytes;
  const r = new Reader(bytes, mem.end);
  r.pos = mem.start;
  if (r.u32() !== 1) return bytes;
  const { min, max } = r.limits('memory');
  if (max !== null && max <= maxPages) return bytes;
  const payload = [1, 1, ...u32leb(Math.min(min, maxPages)), ...u32leb(maxPages)];
  const section = Uint8Array.from([5, ...u32leb(payload.length), ...payload]);
  const out = new Uint8Array(bytes.length - (mem.end - mem.head) + section.length);
  out.set(bytes.subarray(0, mem.head), 0);
  out.set(section, mem.head);
  out.set(bytes.subarray(mem.end), mem.head + section.length);
  return out;
}

const limitsBytes = (min: number, max: number) => [1, ...u32leb(min), ...u32leb(max)];

/** Replaces one section's payload (bytes from `head` to `end`) with `payload`. */
function splice(bytes: Uint8Array, s: Section, payload: number[]): Uint8Array {
  const section = Uint8Array.from([s.id, ...u32leb(payload.length), ...payload]);
  const out = new Uint8Array(bytes.length - (s.end - s.head) + section.length);
  out.set(bytes.subarray(0, s.head), 0);
  out.set(section, s.head);
  out.set(bytes.subarray(s.end), s.head + section.length);
  return out;
}

/**
 * The same module with every table's maximum set to min(declared, entries): `table.grow` past the
 * cap then returns -1 instead of growing on the host. Returned unchanged when every table fits.
 */
export function clampTables(bytes: Uint8Array, entries: number): Uint8Array {
  const tab = sections(bytes).find((s) => s.id === 4);
  if (!tab) return bytes;
  const r = new Reader(bytes, tab.end);
  r.pos = tab.start;
  const n = r.u32();
  const payload: number[] = [...u32leb(n)];
  let changed = false;
  for (let i = 0; i < n; i++) {
    const type = r.byte();
    const { min, max } = r.limits('table');
    if (max === null || max > entries) changed = true;
    payload.push(type, ...limitsBytes(Math.min(min, entries), max === null ? entries : Math.min(max, entries)));
  }
  return changed ? splice(bytes, tab, payload) : bytes;
}

/** What the runner loads: memory and tables clamped to the call's caps. */
export function clampModule(bytes: Uint8Array, caps: ModuleCaps): Uint8Array {
  return clampTables(clampMemory(bytes, caps.memPages), caps.tableEntries);
}

/**
 * The check of an upload (PUT /v1/b, PUT /admin/blob): a blob that reads as a module must fit the
 * size caps. Bytes that only start like a module are left to publication, which refuses them.
 */
export function checkUpload(bytes: Uint8Array): void {
  let info: ModuleInfo;
  try {
    info = inspectModule(bytes);
  } catch {
    return;
  }
  checkSizes(info, defaultCaps());
}
