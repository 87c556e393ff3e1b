// What a wanted row shows of a signature. ErrSig v3 already takes out URLs, paths, users, IPs,
// ids and image references; a signature still keeps bare host names in a message (`port:
// smtp.local`, `wanted to match metrics.internal`, a DNS name in a cloud error), repository owners
// and names in a Go module path, and a name the output states privately elsewhere (a registry
// namespace repeated in `project platfrom not found`), AWS ARNs with their role and resource names. Demand is published, so these are masked
// before a miss is recorded; the hash it is filed under stays the signature's own.

/** Hosts every public text names: not a caller's. */
const PUBLIC_HOST =
  /^(?:[\w-]+\.)*(?:github\.com|gitlab\.com|bitbucket\.org|docker\.io|docker\.com|ghcr\.io|quay\.io|gcr\.io|npmjs\.org|npmjs\.com|pypi\.org|pythonhosted\.org|crates\.io|golang\.org|go\.dev|maven\.org|apache\.org|gradle\.org|rubygems\.org|nuget\.org|ubuntu\.com|debian\.org|python\.org|nodejs\.org|microsoft\.com|amazonaws\.com|googleapis\.com|google\.com|azure\.com|azurecr\.io|cloudflare\.com|letsencrypt\.org|example\.com|example\.org|example\.net|k8s\.io|kubernetes\.io|hashicorp\.com|spring\.io|socket\.io|readthedocs\.io|github\.io|heroku\.com|vercel\.com|netlify\.com)$/i;

/** A host name: two labels or more under a top-level domain of the open internet or a private network's. */
const HOST =
  /(?<![\w.@/-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:local|internal|corp|lan|home|intranet|localdomain|com|net|org|io|cloud|co|ai|dev|app))(?![\w-]|\.\w)/gi;

/** Code and file names that look like hosts: reverse-DNS packages (`com.acme.App`), files (`Dockerfile.dev`). */
const NOT_HOST = /^(?:com|org|net|io|java|javax|android|androidx|kotlin|scala|dev|app)\.|^[\w-]+\.(?:dev|app)$/i;

/** A forge path's owner and repository (`github.com/acme/ledger`, `github.com:acme/ledger.git`). */
const FORGE = /\b((?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:])[\w.-]+\/[\w.-]+/gi;

/** Names an output marks as its own: home directories' users, forge owners and repositories, registry namespaces and images. */
function ownNames(text: string): Set<string> {
  const out = new Set<string>();
  const add = (v: string | undefined) => {
    const x = v?.replace(/\.git$/, '');
    if (x && x.length >= 3 && !/^\d+$/.test(x)) out.add(x);
  };
  for (const m of text.matchAll(/(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)([\w.-]+)/g)) add(m[1]);
  for (const m of text.matchAll(/\b(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:]([\w.-]+)\/([\w.-]+)/gi)) {
    add(m[1]);
    add(m[2]);
  }
  // A registry's namespace and image: host.with.dots[:port]/namespace/image.
  for (const m of text.matchAll(/\b(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?\/([\w.-]+)\/([\w.-]+)/gi)) {
    add(m[1]);
    add(m[2]);
  }
  // user@host (a prompt, an ssh target), an npm scope (@acme/ui), an issue or pull request (acme/relay#12),
  // a Docker Hub image under a namespace (docker run acme/worker:1.2).
  // (Not a package at a version: `react@18.2.0`.)
  for (const m of text.matchAll(/(?<![\w.])([\w.-]+)@([A-Za-z][\w-]*(?:\.[\w-]+)*)(?=[:\s]|$)/gm)) {
    add(m[1]);
    add(m[2]);
  }
  for (const m of text.matchAll(/(?<![\w.])@([\w.-]+)(?:\/|%2f)([\w.-]+)?/gi)) {
    add(m[1]);
    add(m[2]);
  }
  for (const m of text.matchAll(/\b([\w.-]+)\/([\w.-]+)#\d+\b/g)) {
    add(m[1]);
    add(m[2]);
  }
  for (const m of text.matchAll(/\bdocker(?:\s+(?:run|pull|push|build|create)\b[^\n]*?)\s([a-z0-9][\w.-]*)\/([\w.-]+):[\w.-]+/g)) {
    add(m[1]);
    add(m[2]);
  }
  // A project's own directory: the one that holds its environment or dependencies (`/srv/desk/.venv`,
  // `~/shop/node_modules`); its name is also the Django app or package name in the messages.
  for (const m of text.matchAll(/[/\\]([\w.-]+)[/\\](?:\.?venv|\.tox|node_modules|vendor|target|\.gradle)[/\\]/g)) add(m[1]);
  return out;
}

/** Common words a private name may share: never masked for that (`api`, `app`, `core`). */
const COMMON = new Set([
  'api',
  'app',
  'web',
  'core',
  'main',
  'src',
  'lib',
  'library',
  'test',
  'tests',
  'docs',
  'home',
  'user',
  'root',
  'runner',
  'build',
  'server',
  'client',
  'common',
  'tools',
]);

/** A Maven coordinate: group:artifact[:packaging][:classifier]:version. */
const MAVEN = /(?<![\w.-])((?:[a-z][\w-]*\.)+[a-z][\w-]*):[\w.-]+(?::[\w.-]+){0,2}:(?:\d[\w.-]*|<v>|<n>)(?![\w.-])/g;

/** Groups of public artifacts whose reversed name is no host of PUBLIC_HOST (`org.springframework`). */
const PUBLIC_GROUP =
  /^(?:org\.(?:springframework|hibernate|junit|mockito|eclipse|jboss|slf4j|projectlombok|jetbrains|postgresql|mariadb|flywaydb|liquibase|testcontainers|yaml|jacoco|sonarsource|codehaus|ow2|glassfish|bouncycastle)|io\.(?:netty|micrometer|quarkus|projectreactor|grpc|swagger|jsonwebtoken|github)|com\.(?:fasterxml|mysql|h2database|zaxxer|squareup|oracle|microsoft|amazonaws|google|jayway|github)|ch\.qos|jakarta|javax|net\.bytebuddy|commons-[\w-]+|mysql)(?:\.|$)/;

/** A Kubernetes kind (as kubectl and the API server print it) and the quoted name of an object of it. */
const K8S_NAMED =
  /\b((?:pods?|secrets?|configmaps?|services?|serviceaccounts?|service account|namespaces?|the namespace|nodes?|volumes?|(?:deployments?|statefulsets?|daemonsets?|replicasets?)(?:\.apps)?|(?:jobs?|cronjobs?)(?:\.batch)?|ingress(?:es)?(?:\.networking\.k8s\.io)?|persistentvolumeclaims?|persistentvolumes?|(?:cluster)?roles?|(?:cluster)?rolebindings?|releases?|charts?))(\s+)'[^'\s]+'/gi;

/** The status column of a kubectl row (nodes, pods). */
const K8S_STATUS =
  /^(?:Ready|NotReady|SchedulingDisabled|Ready,SchedulingDisabled|Unknown|Running|Pending|Succeeded|Failed|Completed|Terminating|ContainerCreating|CrashLoopBackOff|ImagePullBackOff|ErrImagePull|Error|Evicted|OOMKilled|Init:[\w:/-]+|\d+\/\d+)$/;

/** A table's header as kubectl, docker and helm print it: three or more upper-case column names. */
const TABLE_HEADER = /^\s*(?:NAME|NAMESPACE|CONTAINER ID|REPOSITORY)\s{2,}[A-Z][A-Z ()-]*\s{2,}[A-Z]/m;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The signature as a wanted row may show it: private hosts, forge owners and repositories, and the output's own names masked. */
export function publicSig(sig: string, text: string): string {
  // An ARN names an account, a role or user and a resource: all of it the caller's.
  let out = sig.replace(/\barn:aws[\w-]*:[^\s,;'"]*/g, '<arn>').replace(FORGE, '$1<repo>');
  out = out.replace(HOST, (h) => (PUBLIC_HOST.test(h) || NOT_HOST.test(h) ? h : '<host>'));
  // A Maven coordinate (`org.acme:legacy-api:jar:0.3`) under a group no public host owns: a private artifact.
  out = out.replace(MAVEN, (c, group: string) =>
    PUBLIC_HOST.test(group.split('.').slice(0, 2).reverse().join('.')) || PUBLIC_GROUP.test(group) ? c : '<artifact>',
  );
  // Kubernetes objects are named by their owner (`secrets 'payments-db-creds' not found`, `the namespace 'shop'`, `service account prod/ci-bot`).
  out = out
    .replace(K8S_NAMED, "$1$2'<name>'")
    .replace(/\b(service ?account:? )[\w.-]+\/[\w.-]+/gi, '$1<name>')
    .replace(/\bsystem:serviceaccount:[\w.-]+:[\w.-]+/g, 'system:serviceaccount:<name>');
  // A row of a table the output prints under a header (`NAME STATUS ROLES AGE VERSION`): its first column names the caller's node, pod or release.
  const row = /^(\w+:)([\w.-]+) /.exec(out);
  const cells = row && new RegExp(`^\\s*${escapeRe(row[2]!)}\\s{2,}(\\S+)`, 'm').exec(text);
  // (A row pasted alone is known by its status column.)
  if (row && cells && (TABLE_HEADER.test(text) || K8S_STATUS.test(cells[1]!))) out = `${row[1]}<name>${out.slice(row[1]!.length + row[2]!.length)}`;
  for (const name of ownNames(text)) {
    // Only names the line still holds cost a pattern.
    if (COMMON.has(name.toLowerCase()) || !out.includes(name)) continue;
    out = out.replace(new RegExp(`(?<![\\w.-])${escapeRe(name)}(?![\\w-])`, 'g'), '<name>');
  }
  return out;
}

/**
 * The libraries a wanted row may show of those an output names: none under a forge path or a name
 * the output marks as its own (`github.com/halden-io/envcfg`, `@acme/ui`): a module path names its
 * owner, who may be the caller.
 */
export function publicLibs<L extends { name: string }>(libs: L[], text: string): L[] {
  if (!libs.length) return libs; // most outputs name none: no need to read the text's own names
  const own = [...ownNames(text)].filter((n) => !COMMON.has(n.toLowerCase()));
  return libs.filter((l) => !FORGE_LIB.test(l.name) && !own.some((n) => new RegExp(`(?<![\\w.-])${escapeRe(n)}(?![\\w-])`).test(l.name)));
}

/** A library named by a forge path (a Go module on GitHub): its owner and repository. */
const FORGE_LIB = /^(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\//i;
