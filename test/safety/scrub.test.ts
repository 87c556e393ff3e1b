import { describe, it, expect } from 'vitest';
import { SCRUB_KINDS, scrubAll, scrubFind } from '../../src/core/kernel/safety/scrub.js';
import { ownMs } from '../../src/core/kernel/own-time.js';

// Fake secrets are assembled at runtime so this file does not itself look like a leak.

/** Deterministic pseudo-random string (mulberry32). */
function fake(len: number, alphabet: string, seed: number): string {
  let a = seed >>> 0;
  let s = '';
  for (let i = 0; i < len; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    s += alphabet[Math.floor(r * alphabet.length)];
  }
  return s;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64URL = ALNUM + '-_';
const B64 = ALNUM + '+/';
const HEX = '0123456789abcdef';
const b64u = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

const PRE = 'step 3 failed, log says: ';

/** [name, kind, text, the secret (its first occurrence is the expected offset)] */
const positives: Array<[string, string, string, string]> = [];
function pos(name: string, kind: string, secret: string, before = PRE, after = ' (end)'): void {
  positives.push([name, kind, before + secret + after, secret]);
}

// privkey
{
  const body = fake(64, B64, 1) + '\n' + fake(64, B64, 2) + '\n' + fake(20, B64, 3) + '==';
  const dash = '-----';
  pos('PEM RSA key', 'privkey', dash + 'BEGIN RSA ' + 'PRIVATE KEY' + dash + '\n' + body + '\n' + dash + 'END RSA PRIVATE KEY' + dash);
  pos('OpenSSH key', 'privkey', dash + 'BEGIN OPENSSH ' + 'PRIVATE KEY' + dash + '\n' + body);
  pos('PKCS8 key in JSON string', 'privkey', dash + 'BEGIN ' + 'PRIVATE KEY' + dash + '\\n' + body.replace(/\n/g, '\\n'), '{"private_key": "');
  pos('PGP key block', 'privkey', dash + 'BEGIN PGP ' + 'PRIVATE KEY BLOCK' + dash + '\nVersion: GnuPG v2\n\n' + body);
}
// aws
pos('AWS access key id', 'aws', 'AKIA' + 'IOSFODNN7EXAMPLE');
pos('AWS session key id', 'aws', 'ASIA' + fake(16, UPPER + DIGITS, 4), 'id=');
{
  const secret = fake(40, B64, 5);
  positives.push(['aws_secret_access_key', 'aws', 'aws_secret_access' + '_key = ' + secret + '\n', secret]);
  positives.push(['SecretAccessKey JSON', 'aws', '{"SecretAccess' + 'Key": "' + secret + '"}', secret]);
}
// gcp
pos('Google API key', 'gcp', 'AI' + 'za' + fake(35, B64URL, 6), 'https://maps.example.com/api?key=');
{
  const id = fake(40, HEX, 7);
  positives.push(['service-account private_key_id', 'gcp', '{"type": "service_account", "private_key' + '_id": "' + id + '"}', id]);
}
// github
pos('GitHub classic PAT', 'github', 'gh' + 'p_' + fake(36, ALNUM, 8));
pos('GitHub app token', 'github', 'gh' + 's_' + fake(36, ALNUM, 9), 'https://x-access-token:', '@github.com/o/r.git');
pos('GitHub fine-grained PAT', 'github', 'github' + '_pat_' + fake(22, ALNUM, 10) + '_' + fake(59, ALNUM, 11));
// gitlab
pos('GitLab PAT', 'gitlab', 'gl' + 'pat-' + fake(20, B64URL, 12), 'PRIVATE-TOKEN: ');
// slack
pos('Slack bot token', 'slack', 'xo' + 'xb-' + fake(12, DIGITS, 13) + '-' + fake(13, DIGITS, 14) + '-' + fake(24, ALNUM, 15));
pos(
  'Slack webhook',
  'slack',
  'https://hooks.' + 'slack.com/services/T' + fake(10, UPPER + DIGITS, 16) + '/B' + fake(10, UPPER + DIGITS, 17) + '/' + fake(24, ALNUM, 18),
  'curl -X POST ',
);
// stripe
pos('Stripe live key', 'stripe', 'sk' + '_live_' + fake(24, ALNUM, 19));
pos('Stripe restricted key', 'stripe', 'rk' + '_live_' + fake(24, ALNUM, 20));
pos('Stripe test key', 'stripe', 'sk' + '_test_' + fake(24, ALNUM, 21));
// openai
pos('OpenAI legacy key', 'openai', 'sk' + '-' + fake(48, ALNUM, 22));
pos('OpenAI project key', 'openai', 'sk' + '-proj-' + fake(120, B64URL, 23), 'OPENAI_API_KEY=');
// anthropic
pos('Anthropic key', 'anthropic', 'sk' + '-ant-api03-' + fake(93, B64URL, 24) + 'AA', 'x-api-key: ');
// npm
pos('npm token', 'npm', 'np' + 'm_' + fake(36, ALNUM, 25), '//registry.npmjs.org/:_authToken=');
// pypi
pos('PyPI token', 'pypi', 'py' + 'pi-AgEIcHlwaS5vcmc' + fake(150, B64URL, 26), 'password = ');
// cx (this service)
pos('cx user token', 'cx', 'c' + 'x_' + fake(32, B64URL, 27), 'my token is ');
pos('cxu url token', 'cx', 'c' + 'xu_' + fake(32, B64URL, 28), 'https://commons.example/u/');
// jwt
{
  const jwt = b64u('{"alg":"HS256","typ":"JWT"}') + '.' + b64u('{"sub":"1234567890","name":"x","iat":1516239022}') + '.' + fake(43, B64URL, 29);
  pos('JWT', 'jwt', jwt, 'cookie: session=');
}
// bearer
pos('Authorization: Bearer opaque token', 'bearer', fake(40, ALNUM + '._-', 30), 'Authorization: Bearer ');
pos('bearer in curl', 'bearer', 'ya29.' + fake(60, B64URL, 31), 'curl -H "authorization: bearer ');
pos('Authorization: Basic', 'bearer', Buffer.from('admin:' + 'S3cr3t!pw').toString('base64'), 'Authorization: Basic ');
// urlpass
pos('postgres URL with password', 'urlpass', 'Tr0ub4dor&3', 'connect postgres://app:', '@db.internal:5432/app');
pos('redis URL, empty user', 'urlpass', 'hunter2hunter2', 'REDIS_URL=redis://:', '@cache:6379/0');
pos('https URL with short password', 'urlpass', 'pw1', 'git clone https://bob:', '@git.example.com/r.git');
// password
pos('env assignment', 'password', 'Xk8#mP2qL9', 'DB_PASS' + 'WORD=');
pos('JSON field', 'password', 'hunter22', '{"user": "bob", "pass' + 'word": "', '"}');
pos('YAML field', 'password', 's3cr3t-v4lue', 'db:\n  pass' + 'word: ');
pos('escaped JSON field', 'password', 'P@ssw0rd!', '{\\"pass' + 'wd\\": \\"', '\\"}');
pos('query string', 'password', 'abc12345', 'GET /login?user=bob&pass' + 'word=', '&next=/');
pos('python kwarg', 'password', 'letmein99', 'psycopg2.connect(user="x", pass' + 'word="', '")');
// generic
pos('api_key assignment', 'generic', fake(32, ALNUM, 32), 'API' + '_KEY=');
pos('client_secret JSON', 'generic', fake(40, ALNUM, 33), '{"client' + '_secret": "', '"}');
pos('hex webhook secret', 'generic', fake(40, HEX, 34), 'webhook_' + 'secret: ');
pos(
  'access_token in URL fragment',
  'generic',
  fake(30, ALNUM, 35) + '.' + fake(20, B64URL, 36),
  'https://app.example/cb#access' + '_token=',
  '&expires_in=3600',
);
pos('X-Api-Key header', 'generic', fake(24, ALNUM, 37), 'X-Api' + '-Key: ');

describe('scrub: true positives', () => {
  it.each(positives)('%s -> %s', (_name, kind, text, secret) => {
    const offset = text.indexOf(secret);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(scrubFind(text)).toEqual({ kind, offset });
  });

  it('covers every declared kind', () => {
    const covered = new Set(positives.map((p) => p[1]));
    for (const { kind } of SCRUB_KINDS) expect(covered.has(kind), kind).toBe(true);
    expect(new Set(SCRUB_KINDS.map((k) => k.kind)).size).toBe(SCRUB_KINDS.length);
    for (const k of SCRUB_KINDS) expect(k.kind).toMatch(/^[a-z]+$/);
  });
});

describe('scrub: negatives', () => {
  const sha256 = fake(64, HEX, 100);
  const sha1 = fake(40, HEX, 101);
  const uuid = '123e4567-e89b-42d3-a456-426614174000';
  const dash = '-----';
  const negatives: Array<[string, string]> = [
    ['sha256 digest', `sha256:${sha256}`],
    ['sha1 digest', `checksum ${sha1} does not match`],
    ['uuid', `request ${uuid} failed`],
    ['git commit hash', `commit ${sha1}\nAuthor: A <a@example.com>`],
    ['short git hash', 'HEAD is now at 1a2b3c4 fix build'],
    ['base64 of a short thing', 'payload: ' + Buffer.from('hello world').toString('base64')],
    ['Bearer in prose', 'Use a Bearer token in the Authorization header to authenticate.'],
    ['Bearer placeholder', 'Authorization: Bearer <token>'],
    ['Bearer env var', 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com'],
    ['Bearer YOUR_TOKEN', 'Authorization: Bearer YOUR_ACCESS_TOKEN_GOES_HERE'],
    ['service error text', 'err auth: send Authorization: Bearer cx_...'],
    ['URL without credentials', 'GET https://example.com:8443/path?q=1#frag returned 404'],
    ['postgres URL without password', 'could not connect to postgres://user@host/db'],
    ['URL with *** password', 'postgres://app:***@db:5432/app'],
    ['URL with <password>', 'postgres://app:<password>@db:5432/app'],
    ['URL with ${VAR} password', 'mysql://root:${MYSQL_PASSWORD}@db/app'],
    ['URL with $VAR password', 'amqp://guest:$RABBIT_PASS@mq:5672/'],
    ['URL with word password', 'https://user:password@example.com/'],
    ['URL with pass', 'https://user:pass@example.com/'],
    ['URL with xxx', 'https://user:xxx@example.com/'],
    ['URL with empty password', 'redis://user:@cache:6379'],
    ['host:port@ in path', 'http://localhost:3000/users/@me'],
    ['PostgreSQL auth error', 'FATAL:  password authentication failed for user "x"'],
    ['Invalid API key message', 'Error: Invalid API key'],
    ['API key prose with colon', 'Error: API key: missing'],
    ['npm integrity', '"integrity": "sha512-' + fake(86, B64, 102) + '=="'],
    ['token=***', 'retrying with token=***'],
    ['env var reference', 'export GH=$GITHUB_TOKEN'],
    ['actions secret reference', 'NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}'],
    ['password from secrets', 'password: ${{ secrets.DB_PASSWORD }}'],
    ['password masked', 'password=********'],
    ['password redacted', '"password": "[REDACTED]"'],
    ['password env ref', 'PGPASSWORD=$PGPASS psql -h db'],
    ['password from code', 'const password = process.env.DB_PASSWORD;'],
    ['password from getenv', 'password=os.getenv("DB_PW2")'],
    ['password zod error', 'password: Required'],
    ['password validation prose', '{"errors": {"password": "is too short (minimum is 8 characters)"}}'],
    ['password placeholder', 'DB_PASSWORD=changeme'],
    ['password angle placeholder', 'password: <your-password>'],
    ['PasswordAuthentication', 'PasswordAuthentication no'],
    ['api_key placeholder', 'API_KEY=YOUR_API_KEY_HERE'],
    ['api_key env ref', 'apiKey: process.env.OPENAI_API_KEY'],
    ['secret low entropy', 'secret=aaaaaaaaaaaaaaaa1'],
    ['public key header', dash + 'BEGIN PUBLIC KEY' + dash + '\n' + fake(64, B64, 103)],
    ['certificate', dash + 'BEGIN CERTIFICATE' + dash + '\n' + fake(64, B64, 104)],
    ['private key header only (docs)', 'the file must start with ' + dash + 'BEGIN OPENSSH PRIVATE KEY' + dash + ' and end with the END line'],
    ['private key elided', dash + 'BEGIN PRIVATE KEY' + dash + '\n...\n' + dash + 'END PRIVATE KEY' + dash],
    ['github placeholder', 'gh' + 'p_' + 'x'.repeat(36)],
    ['AWS placeholder', 'AKIA' + 'X'.repeat(16)],
    ['slack docs webhook', 'https://hooks.' + 'slack.com/services/T00000000/B00000000/' + 'X'.repeat(24)],
    ['kebab identifier with sk-', 'task-' + 'queue-worker-pool-manager-v2-experimental'],
    ['snake identifier with cx_', 'c' + 'x_connection_pool_manager_factory'],
    ['single base64 cursor', 'next cursor eyJpZCI6MTIzNDU2Nzg5MCwidCI6MX0'],
    ['PWD env var', 'PWD=/home/user/project2'],
    ['ssh git remote', 'git@github.com:org/repo.git'],
  ];

  it('has at least 15 negatives', () => expect(negatives.length).toBeGreaterThanOrEqual(15));

  it.each(negatives)('%s', (_name, text) => {
    expect(scrubFind(text)).toBeNull();
    expect(scrubAll(text)).toEqual([]);
  });
});

describe('scrubAll', () => {
  it('returns every hit sorted by offset, one per offset, specific kind first', () => {
    const gh = 'gh' + 'p_' + fake(36, ALNUM, 200);
    const aws = 'AKIA' + fake(16, UPPER + DIGITS, 201);
    const text = `first ${aws} then Authorization: Bearer ${gh} and password=Xk8#mP2qL9 end`;
    const hits = scrubAll(text);
    expect(hits).toEqual([
      { kind: 'aws', offset: text.indexOf(aws) },
      { kind: 'github', offset: text.indexOf(gh) },
      { kind: 'password', offset: text.indexOf('Xk8#') },
    ]);
    expect(scrubFind(text)).toEqual(hits[0]);
    expect(scrubAll(text, 2)).toEqual(hits.slice(0, 2));
  });

  it('honours the default max of 20', () => {
    const text = Array.from({ length: 30 }, (_, i) => 'AKIA' + fake(16, UPPER + DIGITS, 300 + i)).join(' ');
    const hits = scrubAll(text);
    expect(hits).toHaveLength(20);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.offset).toBeGreaterThan(hits[i - 1]!.offset);
  });

  it('earliest wins even when a lower-priority kind comes first', () => {
    const pw = 'Tr0ub4dor&3';
    const gh = 'gh' + 'p_' + fake(36, ALNUM, 400);
    const text = `password=${pw} token ${gh}`;
    expect(scrubFind(text)).toEqual({ kind: 'password', offset: text.indexOf(pw) });
  });

  it('reports UTF-16 offsets', () => {
    const key = 'AKIA' + fake(16, UPPER + DIGITS, 500);
    const text = '🔑 emoji first é ' + key;
    expect(scrubFind(text)).toEqual({ kind: 'aws', offset: text.indexOf(key) });
  });
});

describe('scrub: performance', () => {
  function benign(size: number): string {
    const parts: string[] = [];
    let n = 0;
    let i = 0;
    const pieces = [
      () => 'error: connection refused at 10.0.0.' + (i % 255) + ':5432',
      () => 'sha256:' + fake(64, HEX, i),
      () => 'commit ' + fake(40, HEX, i),
      () => 'id 123e4567-e89b-42d3-a456-' + fake(12, HEX, i),
      () => 'the quick brown fox jumps over the lazy dog',
      () => 'see https://example.com/docs/page' + i + '?q=' + i,
      () => 'FATAL: password authentication failed for user "app"',
      () => 'Use a Bearer token to authenticate.',
      () => 'blob ' + fake(12, B64, i),
      () => 'postgres://user@host/db',
    ];
    while (n < size) {
      const s = pieces[i % pieces.length]!();
      parts.push(s);
      n += s.length + 1;
      i++;
    }
    return parts.join('\n').slice(0, size);
  }

  const cases: Array<[string, string]> = [
    ['benign mixed text', benign(64 * 1024)],
    ['one long base64 run', fake(64 * 1024, B64URL, 7)],
    ['repeated eyJ', 'eyJ'.repeat(22000)],
    ['repeated eyJ with dots', 'eyJaaaaa.'.repeat(7300)],
    ['repeated urls', '://a:b'.repeat(11000)],
    ['repeated password=', 'password='.repeat(7300)],
    ['repeated api_key=', 'api_key=aaaaaaaaaaaaaaaaaaaa '.repeat(2500)],
    ['repeated BEGIN', '-----BEGIN '.repeat(6000)],
    ['repeated Bearer', 'Bearer aaaaaaaaaaaaaaaaaaaaaaaa '.repeat(2200)],
    ['one char', 'a'.repeat(64 * 1024)],
  ];

  it.each(cases)('%s: 64 KiB scrubs fast', (_name, text) => {
    expect(text.length).toBeGreaterThan(60 * 1024);
    const { ms, value: hit } = ownMs(() => {
      const found = scrubFind(text);
      scrubAll(text);
      return found;
    });
    expect(hit).toBeNull();
    expect(ms).toBeLessThan(500);
  });
});
