import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Decides whether GEM may open a connection to an IP address. */
export type AddressPolicy = (address: string) => boolean;

/**
 * Public unicast addresses only. Loopback, private (RFC 1918, unique local), link-local
 * (including 169.254.169.254, the cloud metadata service), carrier-grade NAT, multicast,
 * reserved and unspecified ranges are refused, and so is every IPv4-mapped IPv6 address
 * (::ffff:127.0.0.1 is loopback in disguise), whatever it maps to.
 */
export const publicAddressesOnly: AddressPolicy = (address) => {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare) || !ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return false;
  return parsed.range() === 'unicast';
};

/** Any address: tests, and hosts on the local network an operator allows (e.g. GEM_FEEDS_ALLOW_PRIVATE_HOSTS). */
export const anyAddress: AddressPolicy = () => true;

export function addressPolicy(allowPrivateHosts: boolean): AddressPolicy {
  return allowPrivateHosts ? anyAddress : publicAddressesOnly;
}
