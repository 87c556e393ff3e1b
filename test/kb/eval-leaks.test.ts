// The leak count of npm run eval:kb (scripts/eval-kb-leaks.ts): which values of an output count as
// private, and that a value counts as leaked only when a surface shows it after the lookups and
// none showed it before (the seed's own text), as a whole token.
import { expect, it } from 'vitest';
import { leaks, privateValues } from '../../scripts/eval-kb-leaks.js';

it('reads the private values of an output: users, prompts, mail, forge owners and repositories, private hosts, IPs, ids', () => {
  const out = [
    'mika@buildbox-7:~/proj$ git push origin main',
    'To github.com:brightloom/cart-api.git',
    'error: failed to push some refs to github.com:brightloom/cart-api.git',
    '  File "/home/oksana/src/tool.py", line 3',
    'C:\\Users\\tavita\\AppData\\Local\\Temp\\x.log',
    'smtp: 550 for jo.ann@mail.widgets.test',
    'go: git.acmecorp.internal/platform/ledger@v1.2.0: unknown revision',
    'dial tcp 10.20.30.40:5432: connect: connection refused',
    'job 5e1f1000-7a2b-4c3d-9e8f-0123456789ab on worker 9f2c4d1e8a7b6c5d4e3f',
    'see https://docs.python.org/3/library/os.html and /home/runner/work',
  ].join('\n');
  const v = privateValues(out);
  for (const x of [
    'mika',
    'buildbox-7',
    'brightloom',
    'cart-api',
    'oksana',
    'tavita',
    'jo.ann',
    'git.acmecorp.internal',
    'platform',
    'ledger',
    '10.20.30.40',
    '5e1f1000-7a2b-4c3d-9e8f-0123456789ab',
    '9f2c4d1e8a7b6c5d4e3f',
  ])
    expect(v, x).toContain(x);
  // Public hosts, common names and bare ports are nobody's secret.
  for (const x of ['docs.python.org', 'github.com', 'runner', '5432']) expect(v, x).not.toContain(x);
});

it('counts a value shown after the lookups and not before, as a whole token only', () => {
  const before = new Map([
    ['/wanted', 'wanted rows=0'],
    ['export:kb.jsonl', 'the seed says localhost8 and cart'],
  ]);
  const after = new Map([
    ['/wanted', 'wanted rows=2\nmisses=1 other:pull access denied for ghcr.io/brightloom/<s>\nmisses=1 other:cartography failed'],
    ['export:kb.jsonl', 'the seed says localhost8 and cart'],
  ]);
  expect(leaks(before, after, ['brightloom', 'localhost8', 'cart', 'oksana'])).toEqual(['/wanted: brightloom']);
});
