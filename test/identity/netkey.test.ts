import { describe, expect, it } from 'vitest';
import { netKey } from '../../src/core/kernel/net.js';

describe('network keys', () => {
  it('groups IPv4 by /24 and IPv6 by /48', () => {
    expect(netKey('203.0.113.77')).toBe('203.0.113.0/24');
    expect(netKey('::ffff:203.0.113.5')).toBe('203.0.113.0/24');
    expect(netKey('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(netKey('2001:db8:abcd:ffff:1:2:3:4')).toBe('2001:db8:abcd::/48');
    expect(netKey('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(netKey('::1')).toBe('0:0:0::/48');
    expect(netKey(undefined)).toBe('unknown');
    expect(netKey('garbage')).toBe('unknown');
  });
});
