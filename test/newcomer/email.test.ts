// The catalog takes every address of RFC 5321's mailbox syntax (with RFC 6531's UTF-8), through the
// real catalog server's order form, and refuses what is not an address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEmail } from '../../src/catalog/email.js';
import { type Cat, order, startCatalog } from '../catalog/helpers.js';

const VALID = [
  'a@b.c',
  'buyer@example.org',
  'first.last+tag@sub.example.co.uk',
  "o'brien@example.ie",
  'x@xn--p1ai.xn--p1ai',
  'user@b-c.de',
  '"john doe"@example.org',
  '"a@b"@example.org',
  'user@[192.0.2.1]',
  'user@[IPv6:2001:db8::1]',
  'jörg@bücher.de',
  'a'.repeat(64) + '@example.org',
  `u@${'l'.repeat(63)}.org`,
  "!#$%&'*+/=?^_`{|}~-@example.org",
];
const INVALID = [
  'buyer.example.org',
  'buyer@localhost',
  'bu yer@example.org',
  '.a@example.org',
  'a.@example.org',
  'a..b@example.org',
  'a@-b.org',
  'a@b-.org',
  'a@b..org',
  'a@b.org.',
  'a@.org',
  '@example.org',
  'a@',
  'a@b@c.org',
  'a@1.2.3.4',
  'a@[300.1.1.1]',
  'a@[IPv6:zz::1]',
  '"unclosed@example.org',
  'a'.repeat(65) + '@example.org',
  `u@${'l'.repeat(64)}.org`,
  'a'.repeat(60) + '@' + 'b'.repeat(200) + '.org',
  'line\nbreak@example.org',
  'a\u0085b@example.org',
];

describe('isEmail', () => {
  it.each(VALID)('takes %s', (a) => expect(isEmail(a)).toBe(true));
  it.each(INVALID)('refuses %j', (a) => expect(isEmail(a)).toBe(false));
});

describe('through the catalog order form', () => {
  let c: Cat;
  beforeAll(async () => {
    c = await startCatalog({ CATALOG_ORDERS_PER_HOUR: '1000' });
  });
  afterAll(async () => c?.stop());
  const base = { product: 'vps-s', payment: 'quote', location: 'fsn1' };

  it.each(['a@b.c', '"john doe"@example.org', 'user@[192.0.2.1]', 'x@xn--p1ai.xn--p1ai'])('an order with %s is taken', async (email) => {
    const res = await order(c.url, { ...base, email });
    expect(res.status, await res.clone().text()).toBeLessThan(400);
  });
  it.each(['buyer@localhost', 'a..b@example.org', 'a@1.2.3.4'])('an order with %s is a one-line 400', async (email) => {
    const res = await order(c.url, { ...base, email });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('err bad email: not a valid address\n');
  });
});
