import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be sent (security review N-M5, issue 23 item 4): a callback URL names a host the partner
 * controls, DNS included, so the address is checked when the connection is made, not when the URL is configured.
 * An address that is not public (loopback, private, link-local, shared, unique-local, multicast, reserved, a cloud
 * metadata address, or an IPv4 one hidden in IPv6) is refused unless an operator allowed it (WEBHOOK_ALLOWED_ADDRESSES:
 * tests, the sandbox, a receiver inside the cluster on purpose). The address checked is the one connected to: the
 * lookup answers it to the socket, so a name that resolves differently a moment later (DNS rebinding) changes nothing.
 */

/** The ranges no webhook goes to unless allowed (IANA special-purpose registries, IPv4 and IPv6). */
const NOT_PUBLIC: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // shared address space (CGNAT)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, the cloud metadata address 169.254.169.254 among them
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, and the broadcast address
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['100::', 64, 'ipv6'], // discard
  ['2001::', 23, 'ipv6'], // IETF protocol assignments
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique-local (AWS's metadata fd00:ec2::254 among them)
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const notPublic = new BlockList();
for (const [address, prefix, family] of NOT_PUBLIC) notPublic.addSubnet(address, prefix, family);

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIPv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const groups = expandIPv6(lower);
  if (groups === null) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1, g2);
  return null;
}

function expandIPv6(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  const [head = '', tail = ''] = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const left = parse(head);
  const right = parse(tail);
  const lastRight = right.at(-1) ?? left.at(-1) ?? '';
  if (lastRight.includes('.')) return null; // dotted forms are handled by the caller's pattern
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return groups.map((g) => parseInt(g, 16));
}

/** Whether a webhook may go to this address on its own merits: a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !notPublic.check(address, 'ipv4');
  const v4 = embeddedIPv4(address);
  if (v4 !== null) return isPublicAddress(v4);
  return !notPublic.check(address, 'ipv6');
}

/** The addresses an operator allows besides the public ones (CIDRs or single addresses, IPv4 or IPv6). */
export class CallbackAddressPolicy {
  private readonly allowed = new BlockList();

  /** `allowed`: e.g. `['127.0.0.0/8', '::1/128']`; throws on an entry that is not an address or a CIDR. */
  constructor(readonly allowedRanges: readonly string[] = []) {
    for (const range of allowedRanges) {
      const [address = '', prefix] = range.trim().split('/');
      const family = isIP(address);
      const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
      if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32))
        throw new Error(`not an IP address or CIDR: ${JSON.stringify(range)}`);
      this.allowed.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** Whether a webhook may be sent to this address. */
  permits(address: string): boolean {
    if (isPublicAddress(address)) return true;
    const family = isIP(address);
    return family !== 0 && this.allowed.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  /**
   * A `lookup` for node:http's request options: resolves the name, and answers the socket the first address this
   * policy permits, or the error `address_not_allowed` when it permits none of them (nothing is connected to).
   */
  lookup(resolve: typeof dnsLookup = dnsLookup): CallbackLookup {
    return (hostname, options, callback) => {
      resolve(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        const permitted = addresses.find((a) => this.permits(a.address));
        if (permitted === undefined) return callback(addressNotAllowed(), '', 0);
        if ((options as { all?: boolean }).all)
          return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, [permitted]);
        callback(null, permitted.address, permitted.family);
      });
    };
  }
}

export type CallbackLookup = (
  hostname: string,
  options: object,
  callback: (error: NodeJS.ErrnoException | null, address: string, family: number) => void,
) => void;

/** The error of a connection the policy refused; its code is what a try records (never the address). */
export function addressNotAllowed(): NodeJS.ErrnoException {
  return Object.assign(new Error('the callback address is not allowed'), { code: 'address_not_allowed' });
}

/** The default allowance: none in production; loopback elsewhere (a receiver on the developer's machine). */
export function defaultAllowedCallbackAddresses(production: boolean): string[] {
  return production ? [] : ['127.0.0.0/8', '::1/128'];
}
