import { isIPv4, isIPv6 } from 'node:net';
import { HEADER } from '@svc/contract';
import { type IncomingHttpHeaders } from 'node:http';

/** Longest partner id the throttle keys on (the auth's own limit); a longer claim is keyed as one. */
const PARTNER_ID_MAX_LENGTH = 64;

/**
 * The address a client is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 one as its IPv4 form), an
 * IPv6 address by its /64 (a single host commonly holds a whole /64, so counting per address would give it 2^64
 * budgets).
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * What a failed authentication is counted against: the client's address and the partner id it claims, so that one
 * client's failures never spend the budget of another client or of another partner behind the same address.
 */
export function authFailureKey(ip: string, headers: IncomingHttpHeaders): string {
  const claimed = headers[HEADER.partnerId];
  const partner = (Array.isArray(claimed) ? claimed[0] : claimed)?.trim() ?? '';
  return `${clientAddressKey(ip)} ${partner.length <= PARTNER_ID_MAX_LENGTH ? partner : '(long)'}`;
}
