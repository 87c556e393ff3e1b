// What a wanted row shows of a signature (src/core/kb/public-sig.ts): the hosts and names ErrSig
// keeps in a message are masked; code names that look like hosts and public hosts are kept.
import { expect, it } from 'vitest';
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
