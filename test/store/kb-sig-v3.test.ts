// ErrSig v3 on a server's SQLite store: entries stored under v2 are re-signed when the server
// starts (ERRSIG_VERSION went from 2 to 3). They answer to their v3 signatures (exact and coarse),
// their v2 hashes keep resolving through GET /h/{hex}, and that holds after another restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRSIG_VERSION, errsig } from '../../src/core/kb/errsig/errsig.js';
import * as v2 from '../../src/core/kb/errsig/errsig-v2.js';
import { start, type TestServer } from '../helpers/server.js';

const data = mkdtempSync(join(tmpdir(), 'cx-sigv3-'));
// A refused push (v2 signed the wrapper with the remote's owner and name; v3 the rejected ref) and
// a docker pull of a private image (v2 kept the image name; v3 has <image>).
const PUSH = (repo: string, branch: string) =>
  `To github.com:${repo}.git\n ! [rejected]        ${branch} -> ${branch} (non-fast-forward)\nerror: failed to push some refs to 'github.com:${repo}.git'\nhint: Updates were rejected because the tip of your current branch is behind`;
const PULL = (image: string) =>
  `Unable to find image '${image}:latest' locally\ndocker: Error response from daemon: pull access denied for ${image}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.`;

let s: TestServer;
beforeAll(async () => {
  s = await start({ CX_SEED: '0' }, { dir: data });
  const kb = s.core.store.kb;
  for (const [id, out, fix] of [
    ['kpushv201', PUSH('acme/widgets', 'main'), 'Fetch and rebase on the remote branch (git pull --rebase), then push again.'],
    ['kpullv201', PULL('brightloom/cart-api'), 'Log in to the registry that holds the image (docker login), or fix the image name.'],
  ] as const) {
    const o = v2.errsig(out);
    await kb.insert({
      id,
      sig: o.sig,
      h: o.h,
      ch: o.ch,
      title: o.sig,
      error: out,
      fix,
      eco: 'other',
      cls: '',
      tags: [],
      libs: [],
      author: 'aold',
      created: 1,
      sigv: 2,
    });
  }
  // Inserted after this start's re-signing ran, with sigv 2, as a v2 server stored them; the
  // restart below re-signs them.
  await s.close();
  s = await start({ CX_SEED: '0' }, { dir: data });
});
afterAll(async () => {
  await s.close();
  rmSync(data, { recursive: true, force: true });
});

const postE = (body: string) => fetch(`${s.url}/e`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });

describe('entries stored under ErrSig v2, after a start with v3', () => {
  it('v2 and v3 sign these outputs differently, and v3 keeps no owner, repository or image name', () => {
    expect(ERRSIG_VERSION).toBe(3);
    expect(v2.errsig(PUSH('acme/widgets', 'main')).h).not.toBe(errsig(PUSH('acme/widgets', 'main')).h);
    expect(v2.errsig(PULL('brightloom/cart-api')).h).not.toBe(errsig(PULL('brightloom/cart-api')).h);
    expect(errsig(PUSH('acme/widgets', 'main')).sig).toBe('git:! [rejected] <ref> -> <ref> (non-fast-forward)');
    expect(errsig(PULL('brightloom/cart-api')).sig).not.toMatch(/brightloom|cart-api/);
  });

  it('are re-signed: another owner, repository, branch or image is an exact match', async () => {
    expect(await s.core.store.kb.staleSigs(ERRSIG_VERSION, 10)).toEqual([]);
    for (const [out, id] of [
      [PUSH('moraes-lab/pricing-engine', 'release/2.4'), 'kpushv201'],
      [PULL('orders-api'), 'kpullv201'],
    ] as const) {
      const r = await postE(out);
      expect(r.status).toBe(200);
      const t = await r.text();
      expect(t.split('\n')[0]).toMatch(/ match=exact$/);
      expect(t).toContain(`k/${id} `);
    }
    const j = (await (await fetch(`${s.url}/k/kpushv201.json`)).json()) as { sig: string; h: string; title: string };
    expect(j).toMatchObject({ sig: errsig(PUSH('x/y', 'dev')).sig, h: errsig(PUSH('x/y', 'dev')).h, title: errsig(PUSH('x/y', 'dev')).sig });
  });

  it('answer to their v3 hash, their coarse hash and their old v2 hash, after another restart too', async () => {
    for (const restart of [false, true]) {
      if (restart) {
        await s.close();
        s = await start({ CX_SEED: '0' }, { dir: data });
        expect(await s.core.store.kb.staleSigs(ERRSIG_VERSION, 10)).toEqual([]);
      }
      for (const [out, id] of [
        [PUSH('acme/widgets', 'main'), 'kpushv201'],
        [PULL('brightloom/cart-api'), 'kpullv201'],
      ] as const) {
        for (const h of [errsig(out).h, v2.errsig(out).h]) {
          const r = await fetch(`${s.url}/h/${h}`);
          expect(r.status, h).toBe(200);
          const t = await r.text();
          expect(t).toMatch(new RegExp(`^h: ${h.slice(0, 12)} hits=\\d+ match=exact\\n`));
          expect(t).toContain(`k/${id} `);
        }
        if (errsig(out).ch !== errsig(out).h) expect(await (await fetch(`${s.url}/h/${errsig(out).ch}`)).text()).toContain(`k/${id} `);
      }
    }
  });
});
