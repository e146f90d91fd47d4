import { type lookup, type LookupAddress } from 'node:dns';
import { CallbackAddressPolicy, isPublicAddress } from './callback-address-policy';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '100.64.0.1', // CGNAT
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254', // AWS metadata over IPv6
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1', // IPv4-mapped
    '::ffff:7f00:1', // the same, hex
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '2002:c0a8:0101::1', // 6to4 of 192.168.1.1
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('CallbackAddressPolicy', () => {
  it('permits public addresses, and private ones only where an operator allowed them', () => {
    const policy = new CallbackAddressPolicy(['127.0.0.0/8', '10.20.0.0/16', '::1']);
    expect(policy.permits('8.8.8.8')).toBe(true);
    expect(policy.permits('127.0.0.1')).toBe(true);
    expect(policy.permits('::1')).toBe(true);
    expect(policy.permits('10.20.3.4')).toBe(true);
    expect(policy.permits('10.21.3.4')).toBe(false);
    expect(policy.permits('169.254.169.254')).toBe(false);
  });

  it('refuses an allowance that is not an address or a CIDR', () => {
    expect(() => new CallbackAddressPolicy(['localhost'])).toThrow(/not an IP address or CIDR/);
    expect(() => new CallbackAddressPolicy(['10.0.0.0/33'])).toThrow(/not an IP address or CIDR/);
  });

  const lookupWith = (policy: CallbackAddressPolicy, name: string, options: object = {}) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      policy.lookup()(name, options, (error, address) => done({ error, address })),
    );

  it('given a name that resolves to loopback (the real resolver), then the lookup refuses it unless allowed', async () => {
    const refused = await lookupWith(new CallbackAddressPolicy([]), 'localhost');
    expect(refused.error?.code).toBe('address_not_allowed');
    const allowed = await lookupWith(new CallbackAddressPolicy(['127.0.0.0/8', '::1']), 'localhost');
    expect(allowed.error).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(allowed.address);
  });

  it('given a name with a public and a private address, then it answers the permitted one, which the socket connects to', async () => {
    const resolve = ((_name: string, _options: object, callback: (e: null, all: LookupAddress[]) => void) =>
      callback(null, [
        { address: '169.254.169.254', family: 4 },
        { address: '93.184.216.34', family: 4 },
      ])) as unknown as typeof lookup;
    const answer = await new Promise<unknown>((done) =>
      new CallbackAddressPolicy([]).lookup(resolve)('rebinding.example', {}, (_e, address) => done(address)),
    );
    expect(answer).toBe('93.184.216.34');
  });
});
