// Keeps the committed screenshots small: Chromium writes 24-bit PNGs, but a page of text holds a
// few hundred colours, so the 256 most frequent become a palette (the rest map to the nearest) and
// the image is written again as an 8-bit palette PNG at the strongest deflate level.
import { deflateSync, inflateSync } from 'node:zlib';

const SIG = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
function crc32(b: Buffer): number {
  let c = -1;
  for (const x of b) c = CRC[(c ^ x) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** RGB(A) 8-bit PNG → pixels (RGB, 3 bytes each). */
function decode(png: Buffer): { w: number; h: number; px: Buffer } {
  let pos = 8;
  let w = 0;
  let h = 0;
  let ch = 3;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('ascii', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      w = data.readUInt32BE(0);
      h = data.readUInt32BE(4);
      if (data[8] !== 8 || (data[9] !== 2 && data[9] !== 6) || data[12] !== 0) throw new Error('png: only 8-bit RGB/RGBA, not interlaced');
      ch = data[9] === 6 ? 4 : 3;
    }
    if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = w * ch;
  const out = Buffer.alloc(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= ch ? out[y * stride + i - ch]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= ch && y > 0 ? out[(y - 1) * stride + i - ch]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const pr = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, pr][f]!) & 255;
    }
  }
  if (ch === 3) return { w, h, px: out };
  const px = Buffer.alloc(w * h * 3);
  for (let i = 0; i < w * h; i++) out.copy(px, i * 3, i * 4, i * 4 + 3);
  return { w, h, px };
}

/** A smaller PNG of the same picture: an 8-bit palette of its most frequent colours. */
export function shrinkPng(png: Buffer): Buffer {
  const { w, h, px } = decode(png);
  const freq = new Map<number, number>();
  for (let i = 0; i < w * h; i++) {
    const k = (px[i * 3]! << 16) | (px[i * 3 + 1]! << 8) | px[i * 3 + 2]!;
    freq.set(k, (freq.get(k) ?? 0) + 1);
  }
  const pal = [...freq.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 256)
    .map(([k]) => k);
  const index = new Map(pal.map((k, i) => [k, i]));
  const nearest = (k: number) => {
    let best = 0;
    let bd = Infinity;
    const r = k >> 16;
    const g = (k >> 8) & 255;
    const b = k & 255;
    pal.forEach((p, i) => {
      const d = (r - (p >> 16)) ** 2 + (g - ((p >> 8) & 255)) ** 2 + (b - (p & 255)) ** 2;
      if (d < bd) [bd, best] = [d, i];
    });
    index.set(k, best);
    return best;
  };
  const rows = Buffer.alloc(h * (w + 1));
  for (let y = 0; y < h; y++) {
    rows[y * (w + 1)] = 0; // filter None: palette indices do not predict well
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      const k = (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!;
      rows[y * (w + 1) + 1 + x] = index.get(k) ?? nearest(k);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 3, 0, 0, 0], 8);
  const plte = Buffer.alloc(pal.length * 3);
  pal.forEach((k, i) => plte.set([k >> 16, (k >> 8) & 255, k & 255], i * 3));
  const out = Buffer.concat([SIG, chunk('IHDR', ihdr), chunk('PLTE', plte), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
  return out.length < png.length ? out : png;
}
