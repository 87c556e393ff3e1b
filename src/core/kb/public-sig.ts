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

/**
 * Names an output marks as its own: home directories' users, forge owners and repositories, registry
 * namespaces and images. The text is the caller's (16 KiB of anything): a pattern that starts with a
 * run of name characters starts only where such a run does (`(?<![\w.-])`), or a long hyphenated run
 * is tried from each of its characters, in quadratic time.
 */
export function ownNames(text: string): Set<string> {
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
  // A registry's namespace and image: host.with.dots[:port]/namespace/image. (Not under a Go module
  // proxy: `proxy.golang.org/golang.org/x/net` names a public module; nor an Azure type:
  // `Microsoft.Resources/subscriptions/resourcegroups`.)
  for (const m of text.matchAll(/(?<![\w.-])((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?\/([\w.-]+)\/([\w.-]+)/gi)) {
    if (GO_PROXY.test(m[1]!) || m[1]!.startsWith('Microsoft.')) continue;
    add(m[2]);
    add(m[3]);
  }
  // user@host (a prompt, an ssh target), an npm scope (@acme/ui), an issue or pull request (acme/relay#12),
  // a Docker Hub image under a namespace (docker run acme/worker:1.2).
  // (Not a package at a version: `react@18.2.0`.)
  for (const m of text.matchAll(/(?<![\w.-])([\w.-]+)@([A-Za-z][\w-]*(?:\.[\w-]+)*)(?=[:\s]|$)/gm)) {
    add(m[1]);
    add(m[2]);
  }
  for (const m of text.matchAll(/(?<![\w.])@([\w.-]+)(?:\/|%2f)([\w.-]+)?/gi)) {
    add(m[1]);
    add(m[2]);
  }
  for (const m of text.matchAll(/(?<![\w.-])([\w.-]+)\/([\w.-]+)#\d+\b/g)) {
    add(m[1]);
    add(m[2]);
  }
  for (const m of text.matchAll(/\bdocker(?:\s+(?:run|pull|push|build|create)\b[^\n]{0,400}?)\s([a-z0-9][\w.-]*)\/([\w.-]+):[\w.-]+/g)) {
    add(m[1]);
    add(m[2]);
  }
  // A project's own directory: the one that holds its environment or dependencies (`/srv/desk/.venv`,
  // `~/shop/node_modules`); its name is also the Django app or package name in the messages.
  for (const m of text.matchAll(/[/\\]([\w.-]+)[/\\](?:\.?venv|\.tox|node_modules|vendor|target|\.gradle)[/\\]/g)) add(m[1]);
  for (const name of resourceNames(text)) add(name);
  return out;
}

/**
 * The names a caller gives its resources, which a message repeats bare (`target-group api-tg-prod`,
 * `Resource group 'rg-prod' could not be found`): an ARN's resource path, a Google Cloud project and
 * what sits under it (also as `project [shop-prod-19]` and a Cloud SQL `project:region:instance`),
 * an Azure resource group and resource, a Gradle or Maven project, a Kubernetes object named after
 * its kind, what a command line names with a resource flag, an ECS service, a container, an app.
 */
function resourceNames(text: string): string[] {
  const out: string[] = [];
  // An ARN's resource path: every part but the resource type (`role/ci-deployer`, `stack/api-dev/<id>`;
  // an S3 ARN starts with its bucket, an SQS or SNS one is the name alone).
  if (text.includes('arn:aws'))
    for (const [arn] of text.matchAll(ARN))
      for (const part of arn.split(':').slice(5).join(':').split(/[/:]/)) if (part && !ARN_TYPES.has(part)) out.push(part);
  // A Google Cloud resource path: the project and every name under it but a zone, region, location or version
  // (`projects/shop-prod/zones/europe-west1-b/clusters/prod-gke`).
  if (text.includes('projects/'))
    for (const m of text.matchAll(/\bprojects\/([a-z][a-z0-9-]{4,28}[a-z0-9]|\d{6,20})((?:\/[A-Za-z]+\/[\w@-]+(?:\.[\w@-]+)*)*)/g)) {
      out.push(m[1]!);
      for (const [, kind, name] of m[2]!.matchAll(/\/([A-Za-z]+)\/([^/]+)/g)) if (!/^(?:zones|regions|locations|global|versions)$/.test(kind!)) out.push(name!);
    }
  // Cloud Run's and Kubernetes' API paths: `namespaces/shop-prod/services/ledger-api`.
  if (text.includes('namespaces/')) for (const m of text.matchAll(/\bnamespaces\/([a-z0-9][\w.-]*)\/services\/([\w.-]+)/g)) out.push(m[1]!, m[2]!);
  // An Azure resource (`Microsoft.ContainerService/managedClusters/aks-dev`): each type's name, not
  // the words of an action (`Microsoft.Resources/subscriptions/resourcegroups/write`).
  if (text.includes('Microsoft.'))
    for (const m of text.matchAll(/\bMicrosoft\.[A-Za-z]+((?:\/[A-Za-z]+\/[\w@-]+(?:\.[\w@-]+)*)+)/g))
      for (const [, , name] of m[1]!.matchAll(/\/([A-Za-z]+)\/([^/]+)/g)) if (!AZURE_WORDS.test(name!)) out.push(name!);
  // (Not an Azure action: `…/resourcegroups/write`.)
  if (text.includes('esource'))
    for (const m of text.matchAll(/\bresource ?groups?[/ ]['"]?([\w-]+(?:\.[\w-]+)*)/gi)) if (!AZURE_WORDS.test(m[1]!)) out.push(m[1]!);
  // A Cloud SQL connection name: project:region:instance.
  if (CLOUD_REGION.test(text)) for (const m of text.matchAll(CLOUD_SQL)) out.push(m[1]!, m[2]!);
  if (text.includes('roject')) {
    // gcloud's `project [shop-prod-19]`, Maven's `on project billing:`, Gradle's `root project 'cli-tool'` and `project ':app'`.
    for (const m of text.matchAll(/\bproject \[([a-z][a-z0-9-]{4,28}[a-z0-9])\]|\bon project ([\w.-]+):|\bproject '(?::)?([\w.:-]+)'/g))
      out.push((m[1] ?? m[2] ?? m[3])!);
    // Any other project named with a hyphen (`project acme-billing-4471`, `Project my-proj:`): a bare word is prose.
    for (const m of text.matchAll(/\b[Pp]roject[ =:]+["']?([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b/g)) out.push(m[1]!);
  }
  // A Kubernetes object named after its kind, as kubectl quotes it (`pods "cart-api-7d9f8c-x2kqz"`, `namespace "shop-prod"`).
  if (text.includes(' "')) for (const m of text.matchAll(K8S_QUOTED)) out.push(m[1]!);
  // A command line's resource flags (`--stack-name api-dev`, `--secret=stripe-key`, `az … -g rg-shared -n stlogs`).
  if (text.includes(' --'))
    for (const m of text.matchAll(
      /\s--(?:stack-name|function-name|cluster(?:-name)?|bucket|secret|service|repository-name|table-name|queue-name|topic|db-instance-identifier|resource-group|project|instance-name|vault-name|registry|app)[ =]([\w.-]+)/g,
    ))
      out.push(m[1]!);
  if (text.includes('az '))
    for (const m of text.matchAll(/^\s*(?:\$ )?az [^\n]*?\s-[gn] ([\w.-]+)(?:[^\n]*?\s-[gn] ([\w.-]+))?/gm)) out.push(m[1]!, ...(m[2] ? [m[2]] : []));
  // The kinds below, read only when the output has one of their cue words (one scan, not one per kind).
  if (RESOURCE_CUES.test(text)) resourceNamesByCue(text, out);
  // An ECS service (`service api-prod`), a container by its name, an app macOS will not open.
  if (text.includes('service ')) for (const m of text.matchAll(/\bservice ([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b/g)) out.push(m[1]!);
  if (text.includes('ontainer')) for (const m of text.matchAll(/\b(?:No such container: |container name "\/)([\w.-]+)/g)) out.push(m[1]!);
  // (Only a name with a hyphen or a digit: `"terraform" cannot be opened` names a public tool.)
  if (text.includes(' be opened'))
    for (const m of text.matchAll(/["'\u201c]([^"'\u201c\u201d\n]{1,80})["'\u201d] (?:cannot be opened because|is damaged and can(?:'|\u2019)t be opened)/g))
      if (/^[\w .-]+$/.test(m[1]!) && /[-\d]/.test(m[1]!)) out.push(m[1]!);
  return out.map((n) => n.replace(/\.+$/, ''));
}

/** A Terraform provider's action on a resource, named after its type (`deleting EC2 VPC (vpc-0a1b)`). */
const TF_NAMED = /\b(?:creating|reading|updating|deleting|waiting for|modifying|importing)(?: [A-Z][\w.]*){1,6} \(([^()\s<>]{2,200})\)/g;

/** A helm command that names a release first (`helm upgrade --install web ./chart`): the rest of its line. */
const HELM_COMMAND = /\bhelm (?:install|upgrade|uninstall|rollback|status|history|test)\b([^\n]{0,300})/g;
/** Helm's flags that take a value as the next word. */
const HELM_VALUED = new Set(['-n', '-f', '--namespace', '--timeout', '--values', '--version', '--set', '--set-string', '--kube-context', '--repo']);

/** The release a helm command's arguments name: the first word that is no flag nor a flag's value. */
function helmRelease(args: string): string | null {
  const words = args.trim().split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('-')) {
      if (HELM_VALUED.has(w)) i++;
      continue;
    }
    return /^[a-z0-9][-a-z0-9.]*$/.test(w) && !HELM_WORDS.has(w) ? w : null;
  }
  return null;
}
/** Words of prose after `helm upgrade` (`helm upgrade with a 3 MiB configmap`), not a release's name. */
const HELM_WORDS = new Set(['with', 'a', 'an', 'the', 'to', 'and', 'of', 'is', 'fails', 'failed', 'works', 'hangs']);

/** Words of Vault's paths, not a secret's names. */
const VAULT_WORDS = new Set(['secret', 'data', 'metadata', 'kv', 'v1', 'v2', 'auth', 'sys', 'transit', 'pki', 'database', 'creds', 'aws', 'config']);
/** `ERROR: for x`, `endpoint x`, `service connection x`, `queue 'x'`, `cluster with the name "x"`. */
const SERVICE_NAMED =
  /^ERROR: for ([\w.-]+) |\bon endpoint ([\w.-]+)|\bservice connection ([\w.]*[-_\d][\w.-]*)|\b(?:queue|exchange|subscription) '([^'\s]{1,200})'|\bcluster with the name ["']([\w.-]+)["']/gm;
/** A data store's names (a table, a DynamoDB table, an index, a Rails database) and a private Action (`owner/repo`). */
const STORE_NAMED =
  /\bpermission denied for (?:table|sequence|schema|view|function|database) "?([\w.-]+)|\bTable: ([\w.-]+) not found|\bno such index \[([^\]\s]{1,200})\]|\bfind your database: ([\w-]+)|\bresolve action [`'"]?([\w.-]+\/[\w.-]+)(?=[^\n]{0,40}repository not found)/g;

/** Cue words of the resource kinds `resourceNamesByCue` reads. */
const RESOURCE_CUES =
  /creating |reading |updating |deleting |waiting for |modifying |importing |Subscription: "|helm|Helm|UPGRADE FAILED|INSTALLATION FAILED|afka|AFKA|collection: |denied for |Table: |no such index|no queue|no exchange|find your database|resolve action|Error (?:reading|writing|deleting|listing) |\.service|\.socket|\.timer|ERROR: for |endpoint |service connection|queue '|exchange '|subscription '|cluster with/;

/** Names of Terraform's, Helm's, Kafka's, data stores', Vault's, systemd's and other tools' resources (`resourceNames`). */
function resourceNamesByCue(text: string, out: string[]): void {
  // Terraform's providers name the resource they act on: AWS's `creating S3 Bucket (acme-assets)`,
  // `waiting for EKS Cluster (platform-prod) create`; azurerm's resource ids (`(Subscription: "…"
  // Resource Group Name: "rg-web" Storage Account Name: "stlogs")`).
  // (An ARN's names are read by resourceNames.)
  for (const m of text.matchAll(TF_NAMED)) if (!m[1]!.startsWith('arn:')) out.push(m[1]!, ...m[1]!.split(/[/:]/));
  if (text.includes('Subscription: "')) for (const m of text.matchAll(/\b(?:[A-Z][a-z]+ ){1,4}Name: "([^"\n<>]{2,100})"/g)) out.push(m[1]!);
  // A Helm release: the name a helm command line gives (`helm upgrade --install web ./chart`), and the
  // ones Helm's messages name (`in progress for release pay-gw`, `release web failed`, `"web" has no
  // deployed releases`, `must equal "web-v2"`).
  if (/\bhelm\b|\b(?:UPGRADE|INSTALLATION) FAILED\b/i.test(text)) {
    for (const m of text.matchAll(HELM_COMMAND)) {
      const name = helmRelease(m[1]!);
      if (name) out.push(name);
    }
    for (const m of text.matchAll(
      /\bfor release ([a-z0-9][-a-z0-9.]*[a-z0-9])|\brelease ["']([a-z0-9][-a-z0-9.]*)["']|\brelease ([a-z0-9][-a-z0-9.]*[a-z0-9]) failed\b|["']([a-z0-9][-a-z0-9.]*)["'] has no deployed releases|release-name" must equal "([^"\n]{1,60})": current value is "([^"\n]{1,60})"/g,
    ))
      for (const name of m.slice(1)) if (name) out.push(name);
  }
  // Kafka's topics (`Not authorized to access topics: [billing.invoices]`, `Topic orders not present in metadata`)
  // and MongoDB's `collection: shop.customers`.
  if (/kafka/i.test(text))
    for (const m of text.matchAll(/\btopics?:? \[([^\]\n]{1,200})\]|\bTopic ([\w.-]+) not present in metadata/g))
      for (const name of (m[1] ?? m[2]!).split(/,\s*/)) out.push(name.trim());
  if (text.includes('collection: ') && /\bE11000\b|\bMongo/.test(text))
    for (const m of text.matchAll(/\bcollection: ([\w-]+(?:\.[\w-]+)*)/g)) out.push(m[1]!, ...m[1]!.split('.'));
  // A data store's own names: a table PostgreSQL names bare (`permission denied for table payouts`),
  // DynamoDB's `Table: orders-prod`, Elasticsearch's `no such index [logs-2026.11]`, the database
  // Rails could not find; a GitHub Action whose repository is not found.
  for (const m of text.matchAll(STORE_NAMED)) {
    const name = m.slice(1).find(Boolean)!;
    // (PostgreSQL's own schema; GitHub's own Actions, whose owner is public.)
    if (name !== 'public' && !/^(?:actions|github)\//.test(name)) out.push(name, ...name.split('/'));
  }
  // A Vault secret's path but its engine's words (`Error reading secret/data/shop/stripe`).
  for (const m of text.matchAll(/\bError (?:reading|writing|deleting|listing) ([\w.-]+(?:\/[\w.-]+){1,20}):/g))
    for (const part of m[1]!.split('/')) if (!VAULT_WORDS.has(part)) out.push(part);
  // A unit of the caller's own (`quillo-ledger.service`; one named by a bare word is a package's,
  // `nginx.service`), a Compose v1 container (`ERROR: for shop_db_1`, `endpoint shop_db_1`), an Azure
  // DevOps service connection (named with a hyphen, a digit or an underscore: `the service connection
  // does not exist` is prose), a queue, exchange or subscription quoted after its kind (RabbitMQ's `no
  // queue 'x'`, Service Bus), a kind cluster.
  for (const m of text.matchAll(/(?<![\w.@-])([\w@-]+(?:\.[\w@-]+)*)\.(?:service|socket|timer)\b/g))
    if (/[-_\d@]/.test(m[1]!) && !m[1]!.startsWith('systemd-')) out.push(m[1]!);
  for (const m of text.matchAll(SERVICE_NAMED)) out.push(m.slice(1).find(Boolean)!);
}

/** Go module proxies: the path under them is a module's, public. */
const GO_PROXY = /(?:^|\.)(?:proxy\.golang\.org|goproxy\.io|goproxy\.cn)$/;

/** Words of Azure's resource types and actions, not names. */
const AZURE_WORDS = /^(?:subscriptions|resourcegroups|resourceGroups|providers|deployments|read|write|delete|action)$/;

/** A Google Cloud region (`europe-west1`). */
const GCP_REGION = String.raw`(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-[a-z]+\d`;
/** A region between colons: the cheap test before CLOUD_SQL, whose start is tried at every word. */
const CLOUD_REGION = new RegExp(`:${GCP_REGION}:`);
/** A Cloud SQL connection name: project:region:instance. */
const CLOUD_SQL = new RegExp(String.raw`\b([a-z][a-z0-9-]{4,28}[a-z0-9]):${GCP_REGION}:([a-z][a-z0-9-]*[a-z0-9])\b`, 'g');

/** An ARN (`arn:aws:iam::123456789012:role/ci-deployer`): an account, a role or user and a resource, all of them the caller's. */
const ARN = /\barn:aws[\w-]*:[^\s,;'"()\]]*/g;

/** The resource types of ARNs (`arn:aws:iam::1:role/x`): words, not names. */
const ARN_TYPES = new Set([
  'role',
  'user',
  'group',
  'policy',
  'assumed-role',
  'instance-profile',
  'stack',
  'changeSet',
  'function',
  'layer',
  'table',
  'index',
  'stream',
  'targetgroup',
  'loadbalancer',
  'app',
  'net',
  'listener',
  'instance',
  'volume',
  'snapshot',
  'image',
  'key',
  'alias',
  'secret',
  'parameter',
  'cluster',
  'service',
  'task',
  'task-definition',
  'container-instance',
  'repository',
  'db',
  'distribution',
  'hostedzone',
  'certificate',
  'log-group',
  'log-stream',
  'rule',
  'event-bus',
  'stateMachine',
  'execution',
  'topic',
  'queue',
  'vpc',
  'subnet',
  'security-group',
]);

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
  // The heads of reverse-DNS names (`org.apache.commons`), which a registry path puts where an owner goes.
  'org',
  'com',
  'net',
  'io',
]);

/** A Maven coordinate: group:artifact[:packaging][:classifier]:version. */
const MAVEN = /(?<![\w.-])((?:[a-z][\w-]*\.)+[a-z][\w-]*):[\w.-]+(?::[\w.-]+){0,2}:(?:\d[\w.-]*|<v>|<n>)(?![\w.-])/g;

/** Groups of public artifacts whose reversed name is no host of PUBLIC_HOST (`org.springframework`). */
const PUBLIC_GROUP =
  /^(?:org\.(?:springframework|hibernate|junit|mockito|eclipse|jboss|slf4j|projectlombok|jetbrains|postgresql|mariadb|flywaydb|liquibase|testcontainers|yaml|jacoco|sonarsource|codehaus|ow2|glassfish|bouncycastle)|io\.(?:netty|micrometer|quarkus|projectreactor|grpc|swagger|jsonwebtoken|github)|com\.(?:fasterxml|mysql|h2database|zaxxer|squareup|oracle|microsoft|amazonaws|google|jayway|github)|ch\.qos|jakarta|javax|net\.bytebuddy|commons-[\w-]+|mysql)(?:\.|$)/;

/** The kinds of Kubernetes objects as kubectl and the API server print them. */
const K8S_KINDS = String.raw`pods?|secrets?|configmaps?|services?|serviceaccounts?|service account|namespaces?|the namespace|nodes?|volumes?|(?:deployments?|statefulsets?|daemonsets?|replicasets?)(?:\.apps)?|(?:jobs?|cronjobs?)(?:\.batch)?|ingress(?:es)?(?:\.networking\.k8s\.io)?|persistentvolumeclaims?|persistentvolumes?|(?:cluster)?roles?|(?:cluster)?rolebindings?|releases?|charts?`;
/** A kind and the name of an object of it, quoted as a signature quotes (not TypeScript's `Cannot find namespace 'JSX'`). */
const K8S_NAMED = new RegExp(String.raw`(?<!\bfind )\b((?:${K8S_KINDS}))(\s+)'[^'\s]+'`, 'gi');
/** The same in the output, as kubectl quotes it (`pods "cart-api-7d9f8c-x2kqz"`, `namespaces "shop-prod"`). */
const K8S_QUOTED = new RegExp(String.raw`\b(?:${K8S_KINDS}) "([a-z0-9][a-z0-9.-]*)"`, 'g');

/** The status column of a kubectl row (nodes, pods). */
const K8S_STATUS =
  /^(?:Ready|NotReady|SchedulingDisabled|Ready,SchedulingDisabled|Unknown|Running|Pending|Succeeded|Failed|Completed|Terminating|ContainerCreating|CrashLoopBackOff|ImagePullBackOff|ErrImagePull|Error|Evicted|OOMKilled|Init:[\w:/-]+|\d+\/\d+)$/;

/** A table's header as kubectl, docker and helm print it: three or more upper-case column names. */
const TABLE_HEADER = /^\s*(?:NAME|NAMESPACE|CONTAINER ID|REPOSITORY)\s{2,}[A-Z][A-Z ()-]*\s{2,}[A-Z]/m;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A name of the output's as a whole word of a line (not part of a longer name, nor of a placeholder: `arn` is no part of `<arn>`). */
const nameRe = (name: string, flags = '') => new RegExp(`(?<![\\w.<-])${escapeRe(name)}(?![\\w>-])`, flags);

/**
 * The signature as a wanted row may show it: private hosts, forge owners and repositories, and the
 * output's own names masked. `own` is ownNames(text), passed in when the caller needs it twice.
 */
export function publicSig(sig: string, text: string, own: ReadonlySet<string> = ownNames(text)): string {
  // An ARN names an account, a role or user and a resource: all of it the caller's.
  let out = sig
    .replace(ARN, '<arn>')
    .replace(FORGE, '$1<repo>')
    .replace(SLACK_ID, (id) => (/\d[A-Z]/.test(id.slice(1)) ? '<id>' : id));
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
  for (const name of own) {
    // Only names the line still holds cost a pattern.
    if (COMMON.has(name.toLowerCase()) || !out.includes(name)) continue;
    out = out.replace(nameRe(name, 'g'), '<name>');
  }
  return out;
}

/**
 * The libraries a wanted row may show of those an output names: none under a forge path or a name
 * the output marks as its own (`github.com/halden-io/envcfg`, `@acme/ui`): a module path names its
 * owner, who may be the caller.
 */
export function publicLibs<L extends { name: string }>(libs: L[], text: string, own?: ReadonlySet<string>): L[] {
  if (!libs.length) return libs; // most outputs name none: no need to read the text's own names
  const mine = [...(own ?? ownNames(text))].filter((n) => !COMMON.has(n.toLowerCase()));
  return libs.filter((l) => !FORGE_LIB.test(l.name) && !mine.some((n) => nameRe(n).test(l.name)));
}

/**
 * A Slack workspace, channel, user, bot or file id (`T024BE7LD`, `C08Q1N2K3L4`): a kind letter and
 * 8-12 capitals and digits, a letter after a digit among them (error codes are shorter, `TS2322`;
 * a constant's digits close it, `ELFCLASS32`).
 */
const SLACK_ID = /\b[TCUBGWDEF][A-Z0-9]{8,12}\b/g;

/** A library named by a forge path (a Go module on GitHub): its owner and repository. */
const FORGE_LIB = /^(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\//i;
