// The privacy half of npm run eval:kb: the private values the evaluation's outputs carry (what
// ErrSig v3 removes: user names and home directories, e-mail addresses, shell prompts' user and
// host, repository owners and names, image names under a registry, module paths under a private
// host, hosts, IP addresses, UUIDs, long hex ids; and what a wanted row masks besides: the names of
// cloud resources, build projects and Kubernetes objects) are read from the outputs themselves, then every
// public surface is fetched before the lookups and after them, and the daily export is written and
// read. A leak is a value that a surface shows after the lookups and did not show before: the
// lookups published it (a value the seed's own text already holds, `runner` or `localhost`, is not
// one). The planted-secrets test (test/kb/privacy.test.ts) plants values no text holds; this counts
// what real-looking outputs would leak.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** Hosts and names every public text may carry: not a caller's. */
const PUBLIC_HOSTS =
  /^(?:(?:[\w-]+\.)*(?:github\.com|githubusercontent\.com|gitlab\.com|bitbucket\.org|docker\.io|docker\.com|ghcr\.io|quay\.io|gcr\.io|pkg\.dev|mcr\.microsoft\.com|npmjs\.org|npmjs\.com|pypi\.org|pythonhosted\.org|crates\.io|golang\.org|go\.dev|proxy\.golang\.org|maven\.org|apache\.org|gradle\.org|rubygems\.org|nuget\.org|ubuntu\.com|debian\.org|alpinelinux\.org|archlinux\.org|fedoraproject\.org|centos\.org|kernel\.org|python\.org|nodejs\.org|microsoft\.com|amazonaws\.com|googleapis\.com|google\.com|azure\.com|azurecr\.io|windows\.net|cloudflare\.com|letsencrypt\.org|example\.com|example\.org|example\.net|localhost|k8s\.io|kubernetes\.io|helm\.sh|hashicorp\.com|terraform\.io|sourceforge\.net|launchpad\.net|gnu\.org|mozilla\.org|rust-lang\.org|rustup\.rs|java\.com|oracle\.com|spring\.io|jetbrains\.com|visualstudio\.com|dotnet\.microsoft\.com|php\.net|packagist\.org|yarnpkg\.com|unpkg\.com|jsdelivr\.net|openssl\.org|sqlite\.org|postgresql\.org|mysql\.com|mongodb\.com|redis\.io|elastic\.co|nginx\.org|anaconda\.org|conda\.io|huggingface\.co|vercel\.com|netlify\.app|heroku\.com|herokuapp\.com|svc\.cluster\.local|cluster\.local))$/i;

/** Words that are too common to tell a caller: a user `root` or a repository `app` is everyone's. */
const COMMON = new Set([
  'root',
  'runner',
  'user',
  'admin',
  'ubuntu',
  'app',
  'src',
  'dev',
  'home',
  'test',
  'main',
  'node',
  'build',
  'work',
  'code',
  'project',
  'projects',
  'repo',
  'api',
  'web',
  'server',
  'local',
  'default',
  'docker',
  'data',
  'library',
  'www',
  'postgres',
  'mysql',
  'redis',
  'nginx',
  'jenkins',
  'vagrant',
  'ec2-user',
  'centos',
  'debian',
  'git',
  'travis',
  'circleci',
  'gitlab-runner',
  'buildkite-agent',
  'vscode',
  'codespace',
  'node_modules',
  'opt',
  'usr',
  'var',
  'tmp',
]);

/** The private values of one output: each at least 4 characters and not a common word. */
export function privateValues(output: string): string[] {
  const out = new Set<string>();
  const add = (v: string | undefined) => {
    if (!v) return;
    const x = v.replace(/\.git$/, '').replace(/\.+$/, '');
    if (x.length >= 4 && !/^\d+$/.test(x) && !COMMON.has(x.toLowerCase()) && !PUBLIC_HOSTS.test(x)) out.add(x);
  };
  // Home directories: /home/NAME, /Users/NAME, C:\Users\NAME.
  for (const m of output.matchAll(/(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)([\w.-]+)/g)) add(m[1]);
  // E-mail addresses (the whole address and its local part).
  for (const m of output.matchAll(/\b([\w.+-]+)@((?:[\w-]+\.)+[a-z]{2,})\b/gi)) {
    add(m[0]);
    add(m[1]);
  }
  // A shell prompt's user and host: user@host:~/dir$ or [user@host dir]$.
  for (const m of output.matchAll(/^\s*\[?([\w.-]+)@([\w.-]+)[: ][^\n]*?[$#%>] /gm)) {
    add(m[1]);
    add(m[2]);
  }
  // Repository owners and names on a forge, and image namespaces and names under a registry.
  for (const m of output.matchAll(
    /\b(?:github\.com|gitlab\.com|bitbucket\.org|ghcr\.io|quay\.io|docker\.io|registry\.gitlab\.com)[:/]([\w.-]+)\/([\w.-]+)/gi,
  )) {
    add(m[1]);
    add(m[2]);
  }
  // Private hosts (a dotted name under a domain no public text names); what sits under a private
  // network's host or a forge or registry of one's own (owner, repository, module) too.
  for (const m of output.matchAll(
    /\b((?:[a-z0-9-]+\.)+(?:internal|corp|local|lan|io|dev|net|com|org|cloud|app|co))(?![\w-]|\.\w)(?:[:/]([\w.-]+)(?:\/([\w.-]+))?)?/gi,
  )) {
    const host = m[1]!;
    // Reverse-DNS packages (`com.acme.app`, `io.corp`) and files (`Dockerfile.dev`, `layouts.app`) are code, not hosts.
    if (
      PUBLIC_HOSTS.test(host) ||
      /^\d/.test(host) ||
      /^(?:com|org|net|io|java|javax|android|androidx|kotlin)\./i.test(host) ||
      /^[\w-]+\.(?:dev|app)$/i.test(host)
    )
      continue;
    add(host);
    if (/\.(?:internal|corp|local|lan)$|^(?:git|gitlab|gitea|registry|repo|artifactory|nexus|harbor)\./i.test(host)) {
      add(m[2]);
      add(m[3]);
    }
  }
  // Cloud resources the caller named: an ARN's resource names (`role/ci-deployer`, `stack/vpc-base/…`),
  // a Google Cloud project and what sits under it, an Azure resource group and resource.
  for (const m of output.matchAll(/\barn:aws[\w-]*:[\w-]*:[\w-]*:\d*:([^\s,;'"]+)/g)) for (const part of m[1]!.split(/[/:]/).slice(1)) add(part);
  for (const m of output.matchAll(/\bprojects\/([a-z][a-z0-9-]{4,28}[a-z0-9])\b/g)) add(m[1]);
  // A Terraform provider's resource (`creating S3 Bucket (acme-assets-prod)`).
  for (const m of output.matchAll(/\b(?:creating|reading|updating|deleting|waiting for)(?: [A-Z]\w*)+ \(([\w.-]+)\)/g)) add(m[1]);
  // A Helm release, a Kafka topic, a MongoDB database and collection. (A release a command line names
  // by one bare word is often its chart's, a product's name: `helm upgrade --install grafana grafana/grafana`.)
  for (const m of output.matchAll(/\bin progress for release ([\w.-]+)|\bhelm (?:install|upgrade|uninstall)(?: --?[\w-]+)* ([a-z][\w]*-[\w-]+)(?=\s|$)/gm))
    add(m[1] ?? m[2]);
  for (const m of output.matchAll(/\b(?:kafka[^\n]*?topics?:? \[|Topic )([\w.-]+)[\], ]/gi)) add(m[1]);
  // A unit of the caller's own (named with a hyphen; not systemd's), a Compose v1 container, a kind cluster.
  for (const m of output.matchAll(/\bJob for ([a-z][\w]*-[\w.-]*)\.service failed|^ERROR: for ([\w.-]+) |\bcluster with the name "([\w.-]+)"/gm))
    if (!m[1]?.startsWith('systemd-')) add(m.slice(1).find(Boolean));
  // A data store's names: a table, an index, a queue, a Rails database; a Secret Manager secret under a project number.
  for (const m of output.matchAll(
    /\bpermission denied for table ([\w.-]+)|\bTable: ([\w.-]+) not found|\bno such index \[([\w.-]+)\]|\bno queue '([\w.-]+)'|\bfind your database: ([\w-]+)|\bprojects\/\d+\/secrets\/([\w-]+)/g,
  ))
    add(m.slice(1).find(Boolean));
  for (const m of output.matchAll(/\bE11000 duplicate key error collection: ([\w-]+)\.([\w.-]+)/g)) {
    add(m[1]);
    add(m[2]);
  }
  for (const m of output.matchAll(/\b[Pp]roject[ =:]+[[('"]?([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b/g)) add(m[1]);
  for (const m of output.matchAll(
    /\/(?:instances|buckets|datasets|topics|subscriptions|secrets|clusters|serviceAccounts|keyRings|cryptoKeys|storageAccounts|virtualMachines|sites|vaults|registries|managedClusters|servers|workspaces)\/([\w.@-]+)/g,
  ))
    add(m[1]);
  for (const m of output.matchAll(/\bresource ?groups?[/ ]['"]?([\w.-]+)/gi)) add(m[1]);
  // A Kubernetes object's name after its kind (`pods "cart-api-7d9f8c-x2kqz"`, `namespace "shop-prod"`).
  for (const m of output.matchAll(
    /\b(?:pods?|deployments?(?:\.apps)?|services?|secrets?|configmaps?|namespaces?|statefulsets?(?:\.apps)?|daemonsets?(?:\.apps)?|jobs?(?:\.batch)?|cronjobs?(?:\.batch)?|ingress(?:es)?|persistentvolumeclaims?|serviceaccounts?|nodes?) ["']([\w.-]+)["']/g,
  ))
    add(m[1]);
  // IPv4 addresses other than loopback and the unspecified one, UUIDs, long hex ids.
  for (const m of output.matchAll(/\b(\d{1,3}(?:\.\d{1,3}){3})\b/g)) if (!/^(?:127\.|0\.0\.0\.0|255\.)/.test(m[1]!)) add(m[1]);
  for (const m of output.matchAll(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi)) add(m[0]);
  for (const m of output.matchAll(/\b[0-9a-f]{16,}\b/gi)) if (/[a-f]/i.test(m[0]) && /\d/.test(m[0])) add(m[0]);
  return [...out];
}

/** The public routes that show demand, recent activity or the KB (as the privacy test reads them). */
export function publicRoutes(now = new Date()): string[] {
  const ym = now.toISOString().slice(0, 7);
  return [
    '/wanted?n=100',
    '/wanted?f=json&n=100',
    '/wanted.md?n=100',
    '/f/wanted.atom',
    '/f/wanted.json',
    '/f/kb.atom',
    '/f/kb.json',
    '/brief?q=permission+denied',
    '/brief?q=connection+refused',
    '/brief?q=not+found',
    '/cutoff',
    `/kb/${ym}/`,
    '/llms-full.txt',
    '/sitemap.xml',
    '/',
    '/err',
  ];
}

/**
 * Every public surface's text, by name: the routes, the export's files (written now), and every
 * wanted row (`wanted`: what /wanted shows, 100 at a time, as demand comes and goes).
 */
export async function publicText(url: string, exportDir: string, opsToken: string, wanted: () => Promise<unknown[]>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  out.set('wanted rows', JSON.stringify(await wanted()));
  for (const path of publicRoutes()) {
    const r = await fetch(`${url}${path}`);
    out.set(path, await r.text());
  }
  const r = await fetch(`${url}/admin/export`, { method: 'POST', headers: { authorization: `Bearer ${opsToken}` } });
  if (r.status !== 200) throw new Error(`POST /admin/export answered ${r.status}`);
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const f of names) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(`export:${p.slice(exportDir.length + 1)}`, p.endsWith('.gz') ? gunzipSync(readFileSync(p)).toString('utf8') : readFileSync(p, 'utf8'));
    }
  };
  walk(exportDir);
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a text shows a value as a whole token (not inside a longer word). */
const shows = (text: string, v: string) => new RegExp(`(?<![\\w.-])${escapeRe(v)}(?![\\w-])`).test(text);

/** Values shown after the lookups that no surface showed before: `surface: value` lines. */
export function leaks(before: Map<string, string>, after: Map<string, string>, values: Iterable<string>): string[] {
  const was = [...before.values()].join('\n');
  const found: string[] = [];
  for (const v of values) {
    if (shows(was, v)) continue;
    for (const [name, text] of after) if (shows(text, v)) found.push(`${name}: ${v}`);
  }
  return found;
}
