// An adversarial module corpus, assembled here byte by byte (no toolchain decides what the bytes
// are): the table bomb of the 60-byte report, and one "hostile" module that echoes its input (so it
// passes a KAT) unless the input's first byte picks an attack:
//   T table.grow until refused, then trap      M memory.grow until refused, then trap
//   A ask the host for 64 KiB blocks forever   O ask the host for a 64 MiB output block
//   L loop forever                             R recurse without end (stack overflow)
//   U trap at once (a trap storm is many of these)

const leb = (n: number | bigint): number[] => {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
};

const sleb = (n: number | bigint): number[] => {
  let v = BigInt(n);
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && !(b & 0x40)) || (v === -1n && b & 0x40);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
};

const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const str = (s: string): number[] => [...leb(Buffer.byteLength(s)), ...Buffer.from(s)];
const section = (id: number, payload: number[]): number[] => [id, ...leb(payload.length), ...payload];
const I32 = 0x7f;
const I64 = 0x7e;
const FUNCREF = 0x70;
const type = (params: number[], results: number[]): number[] => [0x60, ...vec(params.map((p) => [p])), ...vec(results.map((r) => [r]))];
const limits = (min: number, max?: number): number[] => (max === undefined ? [0, ...leb(min)] : [1, ...leb(min), ...leb(max)]);
const body = (locals: Array<[number, number]>, code: number[]): number[] => {
  const b = [...vec(locals.map(([n, t]) => [...leb(n), t])), ...code, 0x0b];
  return [...leb(b.length), ...b];
};
const module = (parts: number[][]): Buffer => Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...parts.flat()]);

/** A module that declares a funcref table of `entries` (10,000,000: the report's 60-byte bomb). */
export function tableBomb(entries = 10_000_000): Buffer {
  return module([
    section(1, vec([type([], [I32])])),
    section(3, vec([[0]])),
    section(4, vec([[FUNCREF, ...limits(entries)]])),
    section(7, vec([[...str('run'), 0x00, 0]])),
    section(10, vec([body([], [0x41, 0])])),
  ]);
}

// Opcodes used below.
const op = {
  unreachable: 0x00,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  ret: 0x0f,
  call: 0x10,
  drop: 0x1a,
  get: 0x20,
  set: 0x21,
  i32: 0x41,
  i64: 0x42,
  i32eq: 0x46,
  i32ne: 0x47,
  i64eqz: 0x50,
  i64geu: 0x5a,
  i32add: 0x6a,
  i64add: 0x7c,
} as const;
const VOID = 0x40;

/** The hostile module (entry `run`); `tableMax`/`memMax` declare maxima (none by default: clamped at load). */
export function hostile(opts: { tableMax?: number; memMax?: number } = {}): Buffer {
  const HOST = 'extism:host/env';
  // Types: 0 run ()->i32, 1 ()->i64, 2 (i64)->i64, 3 (i64)->i32, 4 (i64,i32)->(), 5 (i64,i64)->(), 6 (i32)->i32
  const types = [type([], [I32]), type([], [I64]), type([I64], [I64]), type([I64], [I32]), type([I64, I32], []), type([I64, I64], []), type([I32], [I32])];
  // Imports 0..4, then run = 5, recurse = 6.
  const imports = [
    [...str(HOST), ...str('input_length'), 0x00, 1],
    [...str(HOST), ...str('alloc'), 0x00, 2],
    [...str(HOST), ...str('input_load_u8'), 0x00, 3],
    [...str(HOST), ...str('store_u8'), 0x00, 4],
    [...str(HOST), ...str('output_set'), 0x00, 5],
  ];
  const [inputLength, alloc, inputLoad, store, outputSet, , recurse] = [0, 1, 2, 3, 4, 5, 6];
  // Locals of run: 0 len i64, 1 off i64, 2 i i64, 3 c i32.
  const [len, off, i, c] = [0, 1, 2, 3];
  const when = (ch: string, code: number[]) => [op.get, c, op.i32, ...sleb(ch.charCodeAt(0)), op.i32eq, op.if, VOID, ...code, op.end];
  const run = [
    op.call,
    inputLength,
    op.set,
    len,
    op.get,
    len,
    op.i64eqz,
    op.if,
    VOID,
    op.i32,
    0,
    op.set,
    c,
    op.else,
    op.i64,
    0,
    op.call,
    inputLoad,
    op.set,
    c,
    op.end,
    // T: grow the table by a million entries until the engine says no, then trap.
    ...when('T', [
      op.loop,
      VOID,
      0xd0,
      FUNCREF,
      op.i32,
      ...sleb(1_000_000),
      0xfc,
      ...leb(15),
      0,
      op.i32,
      ...sleb(-1),
      op.i32ne,
      op.brIf,
      0,
      op.end,
      op.unreachable,
    ]),
    // M: grow the memory a page at a time until refused, then trap.
    ...when('M', [op.loop, VOID, op.i32, 1, 0x40, 0x00, op.i32, ...sleb(-1), op.i32ne, op.brIf, 0, op.end, op.unreachable]),
    // A: 64 KiB host blocks, never freed, forever.
    ...when('A', [op.loop, VOID, op.i64, ...sleb(65_536), op.call, alloc, op.drop, op.br, 0, op.end]),
    // O: one 64 MiB block as the output.
    ...when('O', [op.i64, ...sleb(64 << 20), op.call, alloc, op.set, off, op.get, off, op.i64, ...sleb(64 << 20), op.call, outputSet, op.i32, 0, op.ret]),
    ...when('L', [op.loop, VOID, op.br, 0, op.end]),
    ...when('R', [op.i32, 0, op.call, recurse, op.ret]),
    ...when('U', [op.unreachable]),
    // Anything else: echo the input.
    op.get,
    len,
    op.call,
    alloc,
    op.set,
    off,
    op.i64,
    0,
    op.set,
    i,
    op.block,
    VOID,
    op.loop,
    VOID,
    op.get,
    i,
    op.get,
    len,
    op.i64geu,
    op.brIf,
    1,
    op.get,
    off,
    op.get,
    i,
    op.i64add,
    op.get,
    i,
    op.call,
    inputLoad,
    op.call,
    store,
    op.get,
    i,
    op.i64,
    1,
    op.i64add,
    op.set,
    i,
    op.br,
    0,
    op.end,
    op.end,
    op.get,
    off,
    op.get,
    len,
    op.call,
    outputSet,
    op.i32,
    0,
  ];
  const rec = [op.get, 0, op.i32, 1, op.i32add, op.call, recurse];
  return module([
    section(1, vec(types)),
    section(2, vec(imports)),
    section(3, vec([[0], [6]])),
    section(4, vec([[FUNCREF, ...limits(1, opts.tableMax)]])),
    section(5, vec([limits(1, opts.memMax)])),
    section(
      7,
      vec([
        [...str('run'), 0x00, 5],
        [...str('memory'), 0x02, 0],
      ]),
    ),
    section(
      10,
      vec([
        body(
          [
            [3, I64],
            [1, I32],
          ],
          run,
        ),
        body([], rec),
      ]),
    ),
  ]);
}
