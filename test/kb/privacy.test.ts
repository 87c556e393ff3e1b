// Nothing private in a signature (ErrSig v3): 50 outputs carry unique private values of every kind
// v3 removes (repository owners and names, image names, compose projects and containers, module
// paths under a private host, e-mail addresses, user names and home directories, shell prompts,
// hosts, IP addresses, UUIDs, long hex ids; and the cloud resources and build projects a wanted row
// masks). They are looked up (misses, recorded as wanted), then
// every public surface is fetched, and the export and the git mirror are written and read: none of
// the planted values appears anywhere.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { start, type TestServer } from '../helpers/server.js';

let s: TestServer;
const work = mkdtempSync(join(tmpdir(), 'cx-privacy-'));
beforeAll(async () => {
  s = await start({ CX_TRUST_PROXY: '1' });
}, 60_000);
afterAll(async () => {
  await s.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The planted values of output i: each unique to this test, so a hit anywhere is a leak. */
function planted(i: number): { output: string; secrets: string[] } {
  const t = `qz${i.toString(36)}x`; // a tag no public text holds
  const secrets = {
    owner: `${t}owner`,
    repo: `${t}repo`,
    image: `${t}img`,
    project: `${t}proj`,
    host: `${t}host`,
    user: `${t}user`,
    mail: `${t}mail`,
    corp: `${t}corp`,
    uuid: `5e1f${(0x1000 + i).toString(16)}-7a2b-4c3d-9e8f-0123456789ab`,
    hex: `${(0xabc000 + i).toString(16)}def0123456789abcdef0123456789abcdef01`,
    ip: `100.79.${150 + i}.${211 - i}`,
    // Cloud resources and builds (wanted rows mask them: src/core/kb/public-sig.ts, resourceNames).
    cloud: `${t}gke`,
    group: `${t}rg`,
    db: `${t}db`,
    svc: `${t}-api`,
    tf: `${t}-deployer`,
    release: `${t}-gw`,
    topic: `${t}.events`,
    mongo: `${t}_prod`,
    table: `${t}_payouts`,
    unit: `${t}-ledger`,
    // Slack's workspace and channel ids (`T024BE7LD`, `C08Q1N2K3L4`).
    team: `T0${(1296 + i).toString(36).toUpperCase()}QZ4BW`,
    channel: `C0${(1296 + i).toString(36).toUpperCase()}QZ7XK1`,
  };
  const kinds = [
    () =>
      `${secrets.user}@${secrets.host}:~/work$ git push origin main\nTo github.com:${secrets.owner}/${secrets.repo}.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:${secrets.owner}/${secrets.repo}.git'`,
    () =>
      `Unable to find image 'ghcr.io/${secrets.owner}/${secrets.image}:1.4.2' locally\ndocker: Error response from daemon: pull access denied for ghcr.io/${secrets.owner}/${secrets.image}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.`,
    () =>
      `Error response from daemon: driver failed programming external connectivity on endpoint ${secrets.project}-web-1 (${secrets.hex}): Bind for 0.0.0.0:8080 failed: port is already allocated\nnetwork ${secrets.project}_default: failed`,
    () =>
      `go: git.${secrets.corp}.internal/${secrets.owner}/${secrets.repo}@v1.3.0: reading git.${secrets.corp}.internal/${secrets.owner}/${secrets.repo}/go.mod at revision v1.3.0: unknown revision v1.3.0`,
    () =>
      `Traceback (most recent call last):\n  File "/home/${secrets.user}/proj/main.py", line 4, in <module>\n    send("${secrets.mail}@example.com")\nsmtplib.SMTPRecipientsRefused: {'${secrets.mail}@example.com': (550, b'5.1.1 mailbox unavailable')}`,
    () => `ssh: connect to host ${secrets.host}.example.net port 22: Connection refused\nfatal: Could not read from remote repository.`,
    () =>
      `psycopg2.OperationalError: connection to server at "${secrets.ip}", port 5432 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?`,
    () => `Error: job ${secrets.uuid} failed: worker ${secrets.hex} exited with status 137 (OOMKilled) on host ${secrets.host}.cluster.internal`,
    // Names ErrSig keeps in a message: a bare host, a Go module path on a forge, an npm scope, a
    // namespace repeated in free text (wanted rows mask them: src/core/kb/public-sig.ts).
    () => `MailConnectException: Couldn't connect to host, port: smtp.${secrets.corp}.internal, 25; timeout -1`,
    () => `go: github.com/${secrets.owner}/${secrets.repo}@v1.2.0: invalid version: unknown revision v1.2.0`,
    () => `npm ERR! 402 Payment Required - PUT https://registry.npmjs.org/@${secrets.owner}%2f${secrets.repo} - You must sign up for private packages`,
    () => `$ docker push registry.${secrets.corp}.io/${secrets.project}/${secrets.image}:1.0\nunauthorized: project ${secrets.project} not found`,
    // A private Maven artifact, a node row of a kubectl table, a project's directory that is also its Django app.
    () => `[WARNING] The POM for org.${secrets.corp}:${secrets.repo}:jar:0.3 is missing, no dependency information available`,
    () =>
      `$ kubectl get nodes\nNAME       STATUS     ROLES           AGE   VERSION\n${secrets.host}       Ready      control-plane   90d   v1.29.4\n${secrets.image}   NotReady   <none>          90d   v1.29.4`,
    () =>
      `  File "/srv/${secrets.project}/.venv/lib/python3.11/site-packages/rest_framework/serializers.py", line 1349, in build_field\ndjango.core.exceptions.ImproperlyConfigured: Field name \`x_name\` is not valid for model \`Ticket\` in \`${secrets.project}.serializers.TicketSerializer\`.`,
    // A Go panic in a dependency under a forge path (a wanted row lists the output's libraries).
    () =>
      `panic: reflect: call of reflect.Value.Interface on zero Value\n\ngoroutine 1 [running]:\ngithub.com/${secrets.owner}/${secrets.repo}.fill({0x0, 0x0})\n\t/home/${secrets.user}/go/pkg/mod/github.com/${secrets.owner}/${secrets.repo}@v0.4.1/fill.go:58 +0x2d1\nexit status 2`,
    // Kubernetes objects named by their owner.
    () =>
      `$ kubectl -n ${secrets.project} rollout status deploy/${secrets.image}\nError from server (NotFound): deployments.apps "${secrets.image}" not found\nWarning  FailedMount  3s  kubelet  MountVolume.SetUp failed for volume "${secrets.repo}" : secret "${secrets.owner}" not found`,
    // Cloud resources and builds: an ARN's target group repeated bare, an ECS service, a Google Cloud
    // project and cluster, gcloud's bracketed project, a Cloud SQL instance, an Azure resource group,
    // Maven's and Gradle's project names, a namespace kubectl quotes.
    () =>
      `service ${secrets.svc} (port 8080) is unhealthy in target-group ${secrets.repo} due to (reason Health checks failed with these codes: [404])\n(target-group arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/${secrets.repo}/abc123)`,
    () =>
      `ERROR: (gcloud.container.clusters.get-credentials) ResponseError: code=404, message=Not found: projects/${secrets.project}/zones/europe-west1-b/clusters/${secrets.cloud}.`,
    () => `WARNING: You do not appear to have access to project [${secrets.project}] or it does not exist.`,
    () => `2026/11/12 10:10:10 [${secrets.project}:europe-west1:${secrets.db}] failed to connect to instance: Refresh error: failed to get instance metadata`,
    () => `$ az group show -g ${secrets.group}\n(ResourceGroupNotFound) Resource group '${secrets.group}' could not be found.`,
    () =>
      `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project ${secrets.repo}: Compilation failure`,
    () => `* What went wrong:\nTask 'assembleRelease' not found in root project '${secrets.image}'.`,
    () => `Error from server (NotFound): namespaces "${secrets.project}" not found`,
    () => `│ Error: creating IAM Role (${secrets.tf}): EntityAlreadyExists: Role with name ${secrets.tf} already exists.\n│ \n│   with aws_iam_role.ci,`,
    () => `Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress for release ${secrets.release}`,
    () => `org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to access topics: [${secrets.topic}]`,
    () => `MongoServerError: E11000 duplicate key error collection: ${secrets.mongo}.accounts index: email_1 dup key: { email: "x@example.com" }`,
    () => `ERROR:  permission denied for table ${secrets.table}`,
    () =>
      `Job for ${secrets.unit}.service failed because the control process exited with error code.\nSee "systemctl status ${secrets.unit}.service" for details.`,
    () => `[ERROR] bolt-app An API error occurred: not_in_channel (channel ${secrets.team}/${secrets.channel})`,
  ];
  return { output: kinds[i % kinds.length]!(), secrets: Object.values(secrets) };
}

it('50 outputs with private values: no public surface, export or mirror file shows any of them', async () => {
  const cases = Array.from({ length: 50 }, (_, i) => planted(i));
  for (const [i, c] of cases.entries()) {
    const net = `10.88.${i}.1`;
    const r = await fetch(`${s.url}/e`, { method: 'POST', body: c.output, headers: { 'content-type': 'text/plain', 'x-forwarded-for': net } });
    expect(r.status === 200 || r.status === 404).toBe(true);
    // The signature line of the answer itself carries none of them either.
    const first = (await r.text()).split('\n')[0]!;
    for (const v of c.secrets) expect(first, `lookup ${i}`).not.toContain(v);
    if (i % 5 === 0) await fetch(`${s.url}/e/${encodeURIComponent(c.output.split('\n').at(-1)!)}`, { headers: { 'x-forwarded-for': net } });
  }
  const all = cases.flatMap((c) => c.secrets);
  // Public routes that show demand, recent activity or the KB.
  const ym = new Date().toISOString().slice(0, 7);
  const routes = [
    '/wanted?n=100',
    '/wanted?f=json&n=100',
    '/wanted.md?n=100',
    '/f/wanted.atom',
    '/f/wanted.json',
    '/f/kb.atom',
    '/f/kb.json',
    '/brief?q=port+is+already+allocated',
    '/brief?q=pull+access+denied',
    '/brief?q=Connection+refused',
    '/cutoff',
    `/kb/${ym}/`,
    '/llms-full.txt',
    '/sitemap.xml',
    '/',
    '/eco/docker',
    '/err',
  ];
  const seen: string[] = [];
  // The demand was recorded (scrubbed): /wanted lists these errors, without the values.
  expect(await (await fetch(`${s.url}/wanted?n=100`)).text()).toContain('mailbox unavailable');
  for (const path of routes) {
    const r = await fetch(`${s.url}${path}`);
    const body = await r.text();
    expect(r.status, path).toBeLessThan(500);
    for (const v of all) if (body.includes(v)) seen.push(`${path}: ${v}`);
  }
  // The daily export, written now, and the git mirror, synced now and cloned.
  expect((await fetch(`${s.url}/admin/export`, { method: 'POST', headers: { authorization: `Bearer ${s.config.operatorTokens.ops}` } })).status).toBe(200);
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(join(s.dir, 'export'));
  if (s.core.mirror) {
    await s.core.mirror.sync();
    // Async: the server runs in this process and must answer the clone.
    await promisify(execFile)('git', ['clone', '--quiet', `${s.url}/git/kb.git`, join(work, 'kb')]);
    walk(join(work, 'kb'));
  }
  expect(files.length).toBeGreaterThan(3);
  for (const f of files) {
    if (f.includes('/.git/')) continue;
    const body = readFileSync(f, f.endsWith('.gz') ? undefined : 'utf8');
    const text = typeof body === 'string' ? body : (await import('node:zlib')).gunzipSync(body).toString('utf8');
    for (const v of all) if (text.includes(v)) seen.push(`${f}: ${v}`);
  }
  expect(seen).toEqual([]);
}, 120_000);
