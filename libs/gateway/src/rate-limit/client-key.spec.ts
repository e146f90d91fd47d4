import { authFailureKey, clientAddressKey } from './client-key';

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['not an address', 'not an address'],
  ])('counts %s as %s', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });

  it('gives every address of one /64 the same key, and the next /64 another', () => {
    const a = clientAddressKey('2001:db8:aa:bb:1::1');
    expect(clientAddressKey('2001:db8:aa:bb:ffff::ffff')).toBe(a);
    expect(clientAddressKey('2001:db8:aa:bc::1')).not.toBe(a);
  });
});

describe('authFailureKey', () => {
  it('keys on the address and the claimed partner id', () => {
    expect(authFailureKey('203.0.113.7', { 'x-partner-id': ' partner-a ' })).toBe('203.0.113.7 partner-a');
    expect(authFailureKey('203.0.113.7', {})).toBe('203.0.113.7 ');
    expect(authFailureKey('203.0.113.7', { 'x-partner-id': 'p'.repeat(65) })).toBe('203.0.113.7 (long)');
  });
});
