// The A2A task cache port: bounded, write-through (a copy only after its save committed), and
// replaceable (capacity 0 or another implementation reads through to the store).
import { Task, TaskState } from '@a2a-js/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerContext } from '../../src/a2a/context.js';
import { LruTaskCache, SqliteTaskStore, type TaskCache } from '../../src/a2a/stores.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const openStore = () => {
  const d = mkdtempSync(join(tmpdir(), 'cx-a2a-cache-'));
  dirs.push(d);
  return openSqliteStore(d);
};
const task = (id: string, state = TaskState.TASK_STATE_WORKING) =>
  Task.fromJSON({
    id,
    contextId: `c-${id}`,
    kind: 'task',
    status: { state, timestamp: new Date(Date.UTC(2030, 0, 1)).toISOString() },
    history: [],
    artifacts: [],
  });

/** A cache that records what the task store asks of it. */
class Recording implements TaskCache {
  log: string[] = [];
  inner = new LruTaskCache(10);
  get size() {
    return this.inner.size;
  }
  get(key: string) {
    const t = this.inner.get(key);
    this.log.push(`get ${key.split('\0')[2]} ${t ? 'hit' : 'miss'}`);
    return t;
  }
  put(key: string, t: Task) {
    this.log.push(`put ${key.split('\0')[2]}`);
    this.inner.put(key, t);
  }
  evict(key: string) {
    this.log.push(`evict ${key.split('\0')[2]}`);
    this.inner.evict(key);
  }
}

describe('A2A task cache', () => {
  it('LRU: bounded, the least recently used goes first, evict removes', () => {
    const c = new LruTaskCache(2);
    c.put('a', task('a'));
    c.put('b', task('b'));
    expect(c.get('a')?.id).toBe('a');
    c.put('c', task('c'));
    expect(c.size).toBe(2);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')?.id).toBe('a');
    c.evict('a');
    expect(c.get('a')).toBeUndefined();
    const none = new LruTaskCache(0);
    none.put('a', task('a'));
    expect(none.size).toBe(0);
  });

  it('write-through: a task enters the cache only once its save has committed', async () => {
    const store = openStore();
    try {
      const cache = new Recording();
      const tasks = new SqliteTaskStore(store.a2a, () => Date.UTC(2030, 0, 1), 10, cache);
      const ctx = ownerContext('i1', '');
      await tasks.save(task('t1'), ctx);
      expect(cache.log).toEqual([]);
      await tasks.flushed();
      expect(cache.log).toEqual(['put t1']);
      expect(await store.a2a.tasks.load('t1', 'i1', '')).not.toBeNull();
      expect((await tasks.load('t1', ctx))?.id).toBe('t1');
      expect(cache.log.at(-1)).toBe('get t1 hit');
      tasks.forget([{ id: 't1', owner: 'i1', agent: '' }]);
      expect(cache.log.at(-1)).toBe('evict t1');
    } finally {
      await store.close();
    }
  });

  it('capacity 0 (no cache): every load reads the store, and answers the same', async () => {
    const store = openStore();
    try {
      const tasks = new SqliteTaskStore(store.a2a, () => Date.UTC(2030, 0, 1), 10, new LruTaskCache(0));
      const ctx = ownerContext('i1', '');
      await tasks.save(task('t2', TaskState.TASK_STATE_COMPLETED), ctx);
      await tasks.flushed();
      const loaded = await tasks.load('t2', ctx);
      expect(loaded?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      // Another process wrote the task meanwhile: without a cache this process sees it.
      const rec = (await store.a2a.tasks.load('t2', 'i1', ''))!;
      await store.a2a.tasks.saveMany([{ ...rec, body: JSON.stringify(Task.toJSON(task('t2', TaskState.TASK_STATE_FAILED))), state: 'TASK_STATE_FAILED' }]);
      expect((await tasks.load('t2', ctx))?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    } finally {
      await store.close();
    }
  });
});
