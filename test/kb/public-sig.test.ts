// What a wanted row shows of a signature (src/core/kb/public-sig.ts): the hosts and names ErrSig
// keeps in a message are masked; code names that look like hosts and public hosts are kept.
import { expect, it } from 'vitest';
import { ownMs } from '../../src/core/kernel/own-time.js';
import { publicLibs, publicSig } from '../../src/core/kb/public-sig.js';

it('masks bare private hosts, forge owners and repositories, and names the output marks as its own', () => {
  expect(publicSig("other:Couldn't connect to host, port: smtp.acme.local, <n>", '')).toBe("other:Couldn't connect to host, port: <host>, <n>");
  expect(publicSig('other:x509: certificate is not valid for any names, but wanted to match metrics.internal', '')).toBe(
    'other:x509: certificate is not valid for any names, but wanted to match <host>',
  );
  expect(publicSig('other:CNAME with DNS name example-shop.com. is not permitted at apex', '')).toBe(
    'other:CNAME with DNS name <host>. is not permitted at apex',
  );
  expect(publicSig('other:User: arn:aws:sts::<n>:assumed-role/ci-runner/i-<hex> is not authorized to perform: ecr:InitiateLayerUpload', '')).toBe(
    'other:User: <arn> is not authorized to perform: ecr:InitiateLayerUpload',
  );
  expect(publicSig('go:go: github.com/myorg/common@<v>: invalid version', '')).toBe('go:go: github.com/<repo>@<v>: invalid version');
  expect(publicSig('other:unauthorized: project platfrom not found', 'docker push registry.acme.io/platfrom/api:1.0')).toBe(
    'other:unauthorized: project <name> not found',
  );
  expect(publicSig('other:No identities found for deploy@buildbox-7', 'ssh-copy-id deploy@buildbox-7')).toBe('other:No identities found for <name>@<name>');
  expect(publicSig('npm:402 Payment Required - PUT <url> - @brightloom/ui', 'PUT https://registry.npmjs.org/@brightloom%2fui')).toBe(
    'npm:402 Payment Required - PUT <url> - @<name>/ui',
  );
});

it('keeps code names, public hosts and common words', () => {
  for (const sig of [
    'java:java.lang.NullPointerException at com.acme.app.Main',
    'other:InvalidArgumentException: View [layouts.app] not found.',
    'other:failed to read Dockerfile.dev',
    'py:ModuleNotFoundError: No module named socket.io',
    'other:Could not resolve host: registry.npmjs.org',
  ])
    expect(publicSig(sig, '')).toBe(sig);
  // A private name that is also a common word is not masked in the rest of the line.
  expect(publicSig('other:api: connection refused', 'git clone git@github.com:acme/api.git')).toBe('other:api: connection refused');
});

it("masks private Maven artifacts, a table row's first column and a project's own directory name", () => {
  expect(publicSig('other:[WARNING] The POM for org.acme:legacy-api:jar:<v> is missing, no dependency information available', '')).toBe(
    'other:[WARNING] The POM for <artifact> is missing, no dependency information available',
  );
  // Public groups stay: the artifact is what the error is about.
  for (const sig of [
    'java:Could not find artifact org.springframework.boot:spring-boot-starter-web:jar:3.2.0',
    'java:Could not resolve org.apache.commons:commons-lang3:3.12.0',
    'java:Could not find com.fasterxml.jackson.core:jackson-databind:2.17.0',
  ])
    expect(publicSig(sig, '')).toBe(sig);
  const nodes = '$ kubectl get nodes\nNAME       STATUS     ROLES           AGE   VERSION\ncp-1       Ready      control-plane   90d   v1.29.4\n';
  expect(publicSig('other:cp-1 Ready control-plane 90d <v>', nodes)).toBe('other:<name> Ready control-plane 90d <v>');
  // A row pasted alone is known by its status column.
  expect(publicSig('other:worker-7 NotReady <none> 90d <v>', 'worker-7   NotReady   <none>          90d   v1.29.4')).toBe(
    'other:<name> NotReady <none> 90d <v>',
  );
  // Without the table, a first word is a word.
  expect(publicSig('other:cp-1 Ready control-plane 90d <v>', 'cp-1 Ready control-plane 90d v1.29.4')).toBe('other:cp-1 Ready control-plane 90d <v>');
  expect(
    publicSig(
      'py:django.core.exceptions.ImproperlyConfigured: Field name `assignee_name` is not valid for model `Ticket` in `desk.serializers.TicketSerializer`.',
      'File "/srv/desk/.venv/lib/python3.11/site-packages/rest_framework/serializers.py", line 1349',
    ),
  ).toBe(
    'py:django.core.exceptions.ImproperlyConfigured: Field name `assignee_name` is not valid for model `Ticket` in `<name>.serializers.TicketSerializer`.',
  );
});

it('masks the names of Kubernetes objects', () => {
  expect(publicSig("other:Error from server (NotFound): secrets 'payments-db-creds' not found", '')).toBe(
    "other:Error from server (NotFound): secrets '<name>' not found",
  );
  expect(
    publicSig(
      "other:Error creating: pods 'api-<hex>-' is forbidden: error looking up service account prod/billing-runner: serviceaccount 'billing-runner' not found",
      '',
    ),
  ).toBe("other:Error creating: pods '<name>' is forbidden: error looking up service account <name>: serviceaccount '<name>' not found");
  expect(
    publicSig(
      "other:Error from server (Forbidden): pods is forbidden: User 'system:serviceaccount:ci:deployer' cannot list resource 'pods' in API group '' in the namespace 'payments'",
      '',
    ),
  ).toBe(
    "other:Error from server (Forbidden): pods is forbidden: User 'system:serviceaccount:<name>' cannot list resource 'pods' in API group '' in the namespace '<name>'",
  );
  // The kind alone, or a resource named in quotes as a kind ('pods'), stays.
  expect(publicSig("other:cannot list resource 'pods' in API group ''", '')).toBe("other:cannot list resource 'pods' in API group ''");
});

it('a wanted row shows no library under a forge path or a name the output marks as its own', () => {
  const text = 'panic: reflect: call of reflect.Value.Interface on zero Value\n\t/home/tomas/go/pkg/mod/github.com/halden-io/envcfg@v0.4.1/fill.go:58 +0x2d1';
  expect(publicLibs([{ name: 'github.com/halden-io/envcfg', ver: 'v0.4.1' }], text)).toEqual([]);
  expect(
    publicLibs(
      [
        { name: '@brightloom/ui', ver: '1.2.0' },
        { name: 'react', ver: '18.2.0' },
      ],
      'npm ERR! peer react@18.2.0 from @brightloom/ui@1.2.0',
    ),
  ).toEqual([{ name: 'react', ver: '18.2.0' }]);
});

it("masks a caller's cloud resources and builds wherever the line repeats them, and keeps the words around them", () => {
  // Each case: the signature, the output it came from, and what a wanted row shows.
  const cases: Array<[string, string, string]> = [
    // An ARN's names, repeated bare in the message.
    [
      'other:service api-prod (port <n>) is unhealthy in target-group api-tg-prod due to (reason Health checks failed)',
      'service api-prod (port 8080) is unhealthy in target-group api-tg-prod due to (reason Health checks failed)\n(target-group arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/api-tg-prod/abc123)',
      'other:service <name> (port <n>) is unhealthy in target-group <name> due to (reason Health checks failed)',
    ],
    // A Google Cloud project and what sits under it (not its zone or version); gcloud's bracketed project.
    [
      'other:Not found: projects/shop-prod/zones/europe-west1-b/clusters/prod-gke.',
      'ERROR: (gcloud.container.clusters.get-credentials) ResponseError: code=404, message=Not found: projects/shop-prod/zones/europe-west1-b/clusters/prod-gke.',
      'other:Not found: projects/<name>/zones/europe-west1-b/clusters/<name>.',
    ],
    [
      "other:denied for resource 'projects/acme-prod/secrets/stripe-key/versions/latest'",
      "Permission 'secretmanager.versions.access' denied for resource 'projects/acme-prod/secrets/stripe-key/versions/latest'",
      "other:denied for resource 'projects/<name>/secrets/<name>/versions/latest'",
    ],
    [
      'other:WARNING: You do not appear to have access to project [ledger7] or it does not exist.',
      'WARNING: You do not appear to have access to project [ledger7] or it does not exist.',
      'other:WARNING: You do not appear to have access to project [<name>] or it does not exist.',
    ],
    [
      'other:[acme-prod:europe-west1:orders-db] failed to connect to instance',
      '2026/11/12 10:10:10 [acme-prod:europe-west1:orders-db] failed to connect to instance',
      'other:[<name>:europe-west1:<name>] failed to connect to instance',
    ],
    // An Azure resource group and resource; an action on resource groups is no name.
    [
      "other:(ResourceGroupNotFound) Resource group 'rgprod' could not be found.",
      "$ az vm list -g rgprod -o table\n(ResourceGroupNotFound) Resource group 'rgprod' could not be found.",
      "other:(ResourceGroupNotFound) Resource group '<name>' could not be found.",
    ],
    [
      "other:does not have authorization to perform action 'Microsoft.Resources/subscriptions/resourcegroups/write' over scope '<path>'",
      "does not have authorization to perform action 'Microsoft.Resources/subscriptions/resourcegroups/write' over scope '/subscriptions/x/resourcegroups/rg-app'",
      "other:does not have authorization to perform action 'Microsoft.Resources/subscriptions/resourcegroups/write' over scope '<path>'",
    ],
    // Maven's and Gradle's project names.
    [
      'java:Failed to execute goal on project billing: Could not resolve dependencies',
      '[ERROR] Failed to execute goal on project billing: Could not resolve dependencies',
      'java:Failed to execute goal on project <name>: Could not resolve dependencies',
    ],
    [
      "other:Task 'assembleRelease' not found in root project 'weatherly'.",
      "* What went wrong:\nTask 'assembleRelease' not found in root project 'weatherly'.",
      "other:Task 'assembleRelease' not found in root project '<name>'.",
    ],
    // kubectl's quoted object names, a resource flag, a container.
    [
      "other:Error from server (NotFound): pods '<name>' not found in namespace shop-prod",
      'Error from server (NotFound): namespaces "shop-prod" not found',
      "other:Error from server (NotFound): pods '<name>' not found in namespace <name>",
    ],
    [
      'other:Stack with id ledger-api does not exist',
      '$ aws cloudformation describe-stacks --stack-name ledger-api\nAn error occurred (ValidationError) when calling the DescribeStacks operation: Stack with id ledger-api does not exist',
      'other:Stack with id <name> does not exist',
    ],
    [
      'other:Error response from daemon: No such container: api-dev',
      'Error response from daemon: No such container: api-dev',
      'other:Error response from daemon: No such container: <name>',
    ],
    // Terraform's providers: the resource an AWS action names (and the line repeating it), azurerm's resource id.
    [
      'node:Error: creating IAM Role (ci-deployer): EntityAlreadyExists: Role with name ci-deployer already exists.',
      'Error: creating IAM Role (ci-deployer): EntityAlreadyExists: Role with name ci-deployer already exists.',
      'node:Error: creating IAM Role (<name>): EntityAlreadyExists: Role with name <name> already exists.',
    ],
    [
      'other:node group workers-a in cluster platform-prod failed',
      'Error: waiting for EKS Node Group (platform-prod:workers-a) create: unexpected state CREATE_FAILED',
      'other:node group <name> in cluster <name> failed',
    ],
    [
      'other:StorageAccountAlreadyTaken: The storage account named stwebshoplogs01 is already taken.',
      'Error: creating Storage Account (Subscription: "0b1f6471-1bf0-4dda-aec3-111122223333"\nResource Group Name: "rg-webshop"\nStorage Account Name: "stwebshoplogs01"): StorageAccountAlreadyTaken',
      'other:StorageAccountAlreadyTaken: The storage account named <name> is already taken.',
    ],
    // An ARN inside Terraform's parentheses is read as an ARN (never `<<name>>`).
    [
      "other:│ Error: creating ELBv2 Listener (<arn>): CertificateNotFound: Certificate '<arn>' not found",
      '│ Error: creating ELBv2 Listener (arn:aws:elasticloadbalancing:eu-central-1:123456789012:loadbalancer/app/web/abc): CertificateNotFound',
      "other:│ Error: creating ELBv2 Listener (<arn>): CertificateNotFound: Certificate '<arn>' not found",
    ],
    // Helm's releases, Kafka's topics, MongoDB's database and collection.
    [
      'node:Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress for release payments-gw-staging',
      'Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress for release payments-gw-staging',
      'node:Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress for release <name>',
    ],
    [
      'node:Error: uninstall: Release not loaded: grafana-ops: release: not found',
      '$ helm uninstall -n observability grafana-ops\nError: uninstall: Release not loaded: grafana-ops: release: not found',
      'node:Error: uninstall: Release not loaded: <name>: release: not found',
    ],
    [
      'java:org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to access topics: [billing.invoices.v2]',
      'org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to access topics: [billing.invoices.v2]',
      'java:org.apache.kafka.common.errors.TopicAuthorizationException: Not authorized to access topics: [<name>]',
    ],
    [
      'java:org.apache.kafka.common.errors.TimeoutException: Topic inventory-updates not present in metadata after <dur>.',
      'org.apache.kafka.common.errors.TimeoutException: Topic inventory-updates not present in metadata after 60000 ms.',
      'java:org.apache.kafka.common.errors.TimeoutException: Topic <name> not present in metadata after <dur>.',
    ],
    // Cloud Run's API path (a project and a service).
    [
      "other:ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'run.services.get' denied on resource 'namespaces/quillo-prod-4471/services/ledger-api'",
      "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'run.services.get' denied on resource 'namespaces/quillo-prod-4471/services/ledger-api' (or resource may not exist).",
      "other:ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'run.services.get' denied on resource 'namespaces/<name>/services/<name>'",
    ],
    // A unit of the caller's own, a Vault secret's path, a Compose v1 container, an Azure DevOps
    // service connection, a Service Bus queue, a kind cluster.
    [
      'other:Job for quillo-ledger.service failed because the control process exited with error code.',
      'Job for quillo-ledger.service failed because the control process exited with error code.',
      'other:Job for <name>.service failed because the control process exited with error code.',
    ],
    [
      'other:Error reading secret/data/quillo/payments: Error making API request.',
      'Error reading secret/data/quillo/payments: Error making API request.\n\nCode: 403. Errors:\n\n* permission denied',
      'other:Error reading secret/data/<name>/<name>: Error making API request.',
    ],
    [
      'other:ERROR: for quillo_db_1 Cannot start service db: driver failed programming external connectivity on endpoint quillo_db_1',
      'ERROR: for quillo_db_1  Cannot start service db: driver failed programming external connectivity on endpoint quillo_db_1 (2b1c)',
      'other:ERROR: for <name> Cannot start service db: driver failed programming external connectivity on endpoint <name>',
    ],
    [
      'other:references service connection quillo-prod-arm which could not be found. The service connection does not exist',
      'Step input azureSubscription references service connection quillo-prod-arm which could not be found. The service connection does not exist',
      'other:references service connection <name> which could not be found. The service connection does not exist',
    ],
    [
      "node:Error: The Service Bus queue 'quillo-invoices-dlq' could not be found.",
      "Error: The Service Bus queue 'quillo-invoices-dlq' could not be found.",
      "node:Error: The Service Bus queue '<name>' could not be found.",
    ],
    [
      "node:Error: failed to create cluster: node(s) already exist for a cluster with the name 'quillo-dev'",
      'Error: failed to create cluster: node(s) already exist for a cluster with the name "quillo-dev"',
      "node:Error: failed to create cluster: node(s) already exist for a cluster with the name '<name>'",
    ],
    // A data store's own names, a secret under a project number, a private Action.
    [
      'sql:ERROR: permission denied for table quillo_payouts',
      'ERROR:  permission denied for table quillo_payouts',
      'sql:ERROR: permission denied for table <name>',
    ],
    [
      'other:Requested resource not found: Table: quillo-orders-prod not found',
      'An error occurred (ResourceNotFoundException) when calling the GetItem operation: Requested resource not found: Table: quillo-orders-prod not found',
      'other:Requested resource not found: Table: <name> not found',
    ],
    [
      "py:elasticsearch.NotFoundError: NotFoundError(<n>, 'index_not_found_exception', 'no such index [logs-quillo-2026.11]', logs-quillo-2026.11, index_or_alias)",
      "elasticsearch.NotFoundError: NotFoundError(404, 'index_not_found_exception', 'no such index [logs-quillo-2026.11]', logs-quillo-2026.11, index_or_alias)",
      "py:elasticsearch.NotFoundError: NotFoundError(<n>, 'index_not_found_exception', 'no such index [<name>]', <name>, index_or_alias)",
    ],
    [
      "other:pika.exceptions.ChannelClosedByBroker: (<n>, 'NOT_FOUND - no queue 'quillo.billing.retry' in vhost '/'')",
      `pika.exceptions.ChannelClosedByBroker: (404, "NOT_FOUND - no queue 'quillo.billing.retry' in vhost '/'")`,
      "other:pika.exceptions.ChannelClosedByBroker: (<n>, 'NOT_FOUND - no queue '<name>' in vhost '/'')",
    ],
    [
      'other:ActiveRecord::NoDatabaseError: We could not find your database: quillo_development.',
      'ActiveRecord::NoDatabaseError: We could not find your database: quillo_development.',
      'other:ActiveRecord::NoDatabaseError: We could not find your database: <name>.',
    ],
    [
      'other:google.api_core.exceptions.NotFound: <n> Secret [projects/<n>/secrets/quillo-db-password] not found or has no versions.',
      'google.api_core.exceptions.NotFound: 404 Secret [projects/884412093311/secrets/quillo-db-password] not found or has no versions.',
      'other:google.api_core.exceptions.NotFound: <n> Secret [projects/<n>/secrets/<name>] not found or has no versions.',
    ],
    [
      "node:Error: Unable to resolve action 'quillo-dev/setup-tools@v3', repository not found",
      'Error: Unable to resolve action `quillo-dev/setup-tools@v3`, repository not found',
      "node:Error: Unable to resolve action '<name>@v3', repository not found",
    ],
    [
      'other:MongoServerError: E11000 duplicate key error collection: quillo_prod.customers index: email_1 dup key: { email: <email> }',
      'MongoServerError: E11000 duplicate key error collection: quillo_prod.customers index: email_1 dup key: { email: "dana@quillo.io" }',
      'other:MongoServerError: E11000 duplicate key error collection: <name> index: email_1 dup key: { email: <email> }',
    ],
  ];
  // A registry path written in capitals is still one (the error says so); `API` is a common word.
  cases.push([
    "other:couldn't parse image reference 'Ghcr.io/Team/API:latest': invalid reference format: repository name must be lowercase",
    "couldn't parse image reference 'Ghcr.io/Team/API:latest': invalid reference format: repository name must be lowercase",
    "other:couldn't parse image reference 'Ghcr.io/<name>/API:latest': invalid reference format: repository name must be lowercase",
  ]);
  for (const [sig, text, shown] of cases) expect(publicSig(sig, text), sig).toBe(shown);
  // Public names next to such rules stay: a reverse-DNS group, a Go module, a public tool, a PyPI
  // project, TypeScript's namespace, a Compose file, a bare word after `project`.
  for (const [sig, text] of [
    [
      'java:Failed to collect dependencies at org.apache.commons:commons-lang3:jar:<v>',
      'Downloading from central: https://repo.maven.apache.org/maven2/org/apache/commons/commons-lang3/3.14.0/x.pom',
    ],
    [
      'other:go: downloading golang.org/x/net <v>',
      'go: downloading golang.org/x/net v0.24.0\nGet "https://proxy.golang.org/golang.org/x/net/@v/list": tls: failed',
    ],
    ["other:'terraform' cannot be opened because the developer cannot be verified.", '"terraform" cannot be opened because the developer cannot be verified.'],
    [
      'py:ImportError: lxml.html.clean module is now a separate project lxml_html_clean.',
      'ImportError: lxml.html.clean module is now a separate project lxml_html_clean.',
    ],
    ["ts:error TS2503: Cannot find namespace 'JSX'.", "src/App.tsx(3,20): error TS2503: Cannot find namespace 'JSX'."],
    // A package's unit, systemd's own.
    [
      'other:Job for nginx.service failed because the control process exited with error code.',
      'Job for nginx.service failed because the control process exited with error code.',
    ],
    ['other:Failed to start systemd-resolved.service', 'Failed to start systemd-resolved.service'],
    // PostgreSQL's own schema; a public Action at a version that does not exist.
    ['node:Error: ERROR: permission denied for schema public', 'ERROR: permission denied for schema public'],
    [
      "node:Error: Unable to resolve action 'actions/setup-go@v7', unable to find version 'v7'",
      'Error: Unable to resolve action `actions/setup-go@v7`, unable to find version `v7`',
    ],
    // Helm's words and a chart that no release names; a Hibernate collection (a class's field).
    [
      'node:Error: UPGRADE FAILED: current release manifest contains removed kubernetes api(s)',
      '$ helm upgrade api ./chart\nError: UPGRADE FAILED: current release manifest contains removed kubernetes api(s)',
    ],
    ['other:Error: could not find tiller', 'helm install stable/nginx-ingress\nError: could not find tiller'],
    [
      'java:org.hibernate.HibernateException: Found shared references to a collection: com.menu.Dish.ingredients',
      'org.hibernate.HibernateException: Found shared references to a collection: com.menu.Dish.ingredients',
    ],
    [
      "other:WARN[<n>] docker-compose.yml: the attribute 'version' is obsolete",
      'WARN[0000] /home/ola/stack/docker-compose.yml: the attribute `version` is obsolete',
    ],
    ['other:project files could not be loaded', 'error: project files could not be loaded'],
  ] as const)
    expect(publicSig(sig, text), sig).toBe(sig);
});

it("masks Slack's workspace, channel, user and bot ids, and keeps codes and constants of that shape", () => {
  expect(publicSig('node:Error: An API error occurred: not_in_channel (channel T024BE7LD/C08Q1N2K3L4)', '')).toBe(
    'node:Error: An API error occurred: not_in_channel (channel <id>/<id>)',
  );
  expect(publicSig('other:[ERROR] slack: invalid_auth for workspace T024BE7LD user U02ABCDEF12 bot B08Q1N2K3L4', '')).toBe(
    'other:[ERROR] slack: invalid_auth for workspace <id> user <id> bot <id>',
  );
  for (const sig of [
    'java:java.lang.UnsatisfiedLinkError: <path>: wrong ELF class: ELFCLASS32',
    'other:error NETSDK1045: The current .NET SDK does not support targeting .NET <v>',
    'ts:error TS2322: Type <s> is not assignable to type <s>',
    'other:D3DERR_INVALIDCALL',
  ])
    expect(publicSig(sig, ''), sig).toBe(sig);
});

it('runs in linear time on 16 KiB outputs built against its patterns', () => {
  // Each was a second or more of one lookup's CPU when a pattern starting with a run of name
  // characters was tried from inside such runs, or a quoted name was read with two nested runs.
  const N = 16 * 1024 - 64;
  const hostile = {
    hyphens: `service ${'a-'.repeat(N / 2 - 10)}_`,
    project: `project ${'a-'.repeat(N / 2 - 10)}_`,
    dots: `resource group ${'a.'.repeat(N / 2 - 10)}`,
    quote: `"${'1'.repeat(N - 30)} be opened`,
    dockerRun: 'docker run '.repeat(Math.floor(N / 11)),
    gcloud: `projects/abcdef${'/a/b'.repeat(N / 4 - 10)}/`,
    terraform: `creating ${'A '.repeat(N / 2 - 10)}`,
    azurerm: `Subscription: "x" ${'Aa '.repeat(N / 3 - 10)}`,
    helm: `helm install ${'-n -n '.repeat(N / 6 - 10)}`,
    kafka: `kafka topics: [${'a, '.repeat(N / 3 - 10)}`,
    mongo: `Mongo collection: ${'a.'.repeat(N / 2 - 20)}`,
    store: `resolve action ${'a/'.repeat(N / 2 - 20)}`,
    unit: `${'a-'.repeat(N / 2 - 20)}.servic .service`,
    vault: `Error reading ${'a/'.repeat(N / 2 - 20)}`,
  };
  for (const [name, text] of Object.entries(hostile)) {
    const { ms } = ownMs(() => publicSig(`other:x ${text.slice(0, 150)}`, text));
    expect(ms, name).toBeLessThan(100);
  }
});
