// The exports' directory: a draft is invisible until commit, then whole; a commit replaces the
// export of the same date; abort leaves nothing; files stream back byte for byte (ranges too);
// dates are listed oldest first, removable, and kept across a restart.
import { expect, it } from 'vitest';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ExportDraft } from '../../src/core/exports/ports.js';
import { type Adapter, storeFor } from './adapters.js';

const put = (d: ExportDraft, name: string, body: string) => pipeline(Readable.from([Buffer.from(body)]), d.create(name));
async function text(r: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function contract(adapter: Adapter): void {
  const open = storeFor(adapter);

  it('commit makes a draft visible at once; the same date again replaces it; abort leaves nothing', async () => {
    const s = await open();
    const f = s.store.exportFiles;
    expect(await f.dates()).toEqual([]);
    const d = await f.begin('2026-11-24');
    await put(d, 'kb-2026-11-24.jsonl.gz', 'first');
    await put(d, 'README.md', '# one');
    expect(await f.dates()).toEqual([]);
    expect(await f.open('2026-11-24', 'README.md')).toBeNull();
    await d.commit();
    expect(await f.dates()).toEqual(['2026-11-24']);
    const file = (await f.open('2026-11-24', 'kb-2026-11-24.jsonl.gz'))!;
    expect(file.size).toBe(5);
    expect(await text(file.stream())).toBe('first');
    expect(await text(file.stream({ start: 1, end: 3 }))).toBe('irs');
    expect((await f.read('2026-11-24', 'README.md'))!.toString()).toBe('# one');

    const d2 = await f.begin('2026-11-24');
    await put(d2, 'README.md', '# two');
    await d2.commit();
    expect((await f.read('2026-11-24', 'README.md'))!.toString()).toBe('# two');
    expect(await f.read('2026-11-24', 'kb-2026-11-24.jsonl.gz')).toBeNull();

    const d3 = await f.begin('2026-11-23');
    await put(d3, 'README.md', '# zero');
    await d3.abort();
    expect(await f.dates()).toEqual(['2026-11-24']);
    await expect(f.open('2026-11-24', '../commons.db')).rejects.toThrow();
  });

  it('dates oldest first, removable, kept across a restart', async () => {
    const s = await open();
    for (const day of ['2026-11-25', '2026-11-23', '2026-11-24']) {
      const d = await s.store.exportFiles.begin(day);
      await put(d, 'README.md', day);
      await d.commit();
    }
    expect(await s.store.exportFiles.dates()).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
    await s.store.exportFiles.remove('2026-11-23');
    const again = await s.reopen();
    expect(await again.exportFiles.dates()).toEqual(['2026-11-24', '2026-11-25']);
    expect((await again.exportFiles.read('2026-11-25', 'README.md'))!.toString()).toBe('2026-11-25');
  });

  it('a file of several MiB written in odd-sized pieces streams back byte for byte, ranges across any boundary', async () => {
    const s = await open();
    const body = Buffer.alloc(2.5 * 1024 * 1024 + 17);
    for (let i = 0; i < body.length; i++) body[i] = (i * 7 + (i >> 12)) & 0xff;
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.length; i += 100_003) pieces.push(body.subarray(i, i + 100_003));
    const d = await s.store.exportFiles.begin('2026-11-26');
    await pipeline(Readable.from(pieces), d.create('kb-2026-11-26.jsonl.gz'));
    await d.commit();
    const f = (await s.store.exportFiles.open('2026-11-26', 'kb-2026-11-26.jsonl.gz'))!;
    expect(f.size).toBe(body.length);
    const bytes = async (r: Readable) => {
      const chunks: Buffer[] = [];
      for await (const c of r) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
    expect((await bytes(f.stream())).equals(body)).toBe(true);
    for (const [start, end] of [
      [0, 0],
      [1048575, 1048576],
      [1048000, 2200000],
      [body.length - 3, body.length + 50],
    ] as const) {
      expect((await bytes(f.stream({ start, end }))).equals(body.subarray(start, end + 1))).toBe(true);
    }
    expect((await s.store.exportFiles.read('2026-11-26', 'kb-2026-11-26.jsonl.gz'))!.equals(body)).toBe(true);
  });
}
