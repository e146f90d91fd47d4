import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Whether a connection's peer is a proxy that TRUST_PROXY trusts, so that its connections carry many clients and are
 * not held to one client's share: with a hop count every peer is (the gateway is only reached through the proxies),
 * with a list the peers it names, without TRUST_PROXY none.
 */
export function trustedPeer(trustProxy: false | number | string[]): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address, bits] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (!isIPv4(address) && !isIPv6(address)) continue;
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped !== undefined) return list.check(mapped, 'ipv4');
    return isIPv6(address) ? list.check(address, 'ipv6') : isIPv4(address) && list.check(address, 'ipv4');
  };
}
