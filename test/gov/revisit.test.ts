// A `later` decision re-inboxes the proposal after revisit_d days: the core on a hand-moved clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildCore } from '../../src/compose/core.js';
import { hashToken } from '../../src/core/platform/identity/tokens.js';
import { invoke } from '../../src/core/platform/invoke.js';
import { opByName } from '../../src/compose/registry.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'cx-gov-'));
const config = loadConfig({ CX_DATA: dir, PORT: '0', CATALOG_PORT: '0', HOST: '127.0.0.1', CX_POW_BITS: '8', CX_BASE_URL: 'http://commons.test' });
let t = Date.parse('2026-03-01T00:00:00Z');
const store = openSqliteStore(dir, 'normal', config.workspaceKey, { now: () => t });
const core = buildCore(config, store, pino({ enabled: false }), { now: () => t, random: randomBytes });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const meta = (bearer: string) => ({ creds: { bearer }, net: '10.9.9.0/24', reqId: 'r', face: 'rest' as const });
const run = async (op: string, input: unknown, bearer: string) => (await invoke(core, opByName(op)!, input, meta(bearer))).out as Record<string, unknown>;

describe('later', () => {
  it('keeps the proposal deferred until revisit_d days have passed, then reopens it and re-inboxes it', async () => {
    await store.identities.create({ id: 'arevis', name: null, created: t, rep: 0, confirmed: 0, frozen: false }, hashToken('cx_revisit_token_000000000000'));
    const { id } = (await run('gov.propose', { kind: 'feature', title: 'Later please', body: 'x' }, 'cx_revisit_token_000000000000')) as { id: string };
    const d = await run('admin.decide', { id, decision: 'later', revisit_d: 7 }, config.operatorTokens.ops);
    expect(d).toMatchObject({ state: 'later', revisit: '2026-03-08T00:00:00Z' });
    // Items (a title, status open) as they arrive; a decision is an update of the row's status.
    const events = async () => (await store.events.read('inbox.proposal', 0, 100)).map((e) => e.payload as { title?: string; status?: string });
    const inboxed = async () => (await events()).filter((p) => p.title !== undefined).map((p) => p.title);
    expect(await inboxed()).toEqual(['new: Later please']);
    expect((await events()).at(-1)).toEqual({ ref: id, status: 'decided' });
    t += 7 * DAY - 1;
    expect(await run('gov.get', { id }, '')).toMatchObject({ state: 'later' });
    t += 1;
    expect(await run('gov.get', { id }, '')).toMatchObject({ state: 'open', revisit: null });
    expect(await inboxed()).toEqual(['new: Later please', 'revisit: Later please']);
    expect((await events()).at(-1)).toMatchObject({ ref: id, status: 'open', scope: 'feature' });
    // Reopened once: reading again does not re-inbox it.
    await run('gov.list', {}, '');
    expect(await inboxed()).toHaveLength(2);
    expect(await run('admin.decide', { id, decision: 'yes' }, config.operatorTokens.ops)).toMatchObject({ state: 'accepted' });
  });
});
