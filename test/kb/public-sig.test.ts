// What a wanted row shows of a signature (src/core/kb/public-sig.ts): the hosts and names ErrSig
// keeps in a message are masked; code names that look like hosts and public hosts are kept.
import { expect, it } from 'vitest';
import { publicSig } from '../../src/core/kb/public-sig.js';

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
