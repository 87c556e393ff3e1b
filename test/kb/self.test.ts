// Every KB entry is told apart from every other by its own error: sent to the answer path, an
// entry's own error output names that entry first, as the fix (exact, or near when another entry
// shares its decisive line and the rest of the output tells them apart). Two entries for one error
// are merged instead (issue 34; docs/decisions.md "Duplicates merged").
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer } from '../../src/core/kb/answer.js';
import { seedFiles } from '../../src/core/kb/seed.js';
import { start, type TestServer } from '../helpers/server.js';

/**
 * Entries whose whole error is another error's message with nothing of its own to go by; their
 * cause is told by what the asker knows (a Compose service, a CI runner), so the answer path
 * names another entry or several, claiming none or the other's fix. Kept short on purpose: a new entry here needs a reason.
 */
const SHARED_MESSAGE: Record<string, string> = {
  'terminate called without an active exception (std::thread not joined)': 'the same two lines end a pure virtual call; that entry has its own first line',
  'Compose bind mount hides node_modules: Cannot find module inside the container': "node's plain Cannot find module, behind Compose's service prefix",
  'AWS CodeBuild: Cannot connect to the Docker daemon (privileged mode off)': "docker's own daemon message inside CodeBuild's log lines",
  'docker build from a git URL: unable to git clone to temporary context directory': "git's terminal-prompts message is the decisive line",
  'ASP.NET Core 8 in Docker: app listens on port 8080, not 80': "curl's connection reset is the decisive line",
  "JVM: Unrecognized VM option 'UseConcMarkSweepGC' (removed flag)": 'the JVM prints the same three lines for every removed option',
};

describe('every KB entry answers its own error', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await start({ CX_SEED: '1' }); // every sample entry
  });
  afterAll(async () => {
    await s.close();
  });

  it('names itself first, as the fix', async () => {
    const kb = s.core.store.kb;
    const bad: string[] = [];
    let n = 0;
    for (const file of seedFiles()) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as { title: string; error: string };
        n++;
        const a = await answer(kb, e.error, { count: false });
        const top = a.candidates[0]?.hit.title;
        const ok = top === e.title && (a.match === 'exact' || a.match === 'near');
        if (!ok && !SHARED_MESSAGE[e.title]) bad.push(`${e.title}: ${a.match}, first ${top ?? 'nothing'}`);
      }
    }
    expect(n).toBeGreaterThan(6000);
    expect(bad).toEqual([]);
  }, 120_000);
});
