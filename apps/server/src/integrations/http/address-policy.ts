import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Decides whether GEM may open a connection to an IP address. */
export type AddressPolicy = (address: string) => boolean;

// The IPv6 global unicast block (RFC 4291 §2.4, IANA); ipaddr.js names the special ranges in it.
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * Public unicast addresses only: an IPv4 address that ipaddr.js calls plain `unicast`, or an
 * IPv6 address in the global unicast block 2000::/3 that ipaddr.js calls plain `unicast`.
 *
 * Refused in IPv4: loopback, private (RFC 1918), link-local (including 169.254.169.254, the
 * cloud metadata service), carrier-grade NAT, multicast, broadcast, "this network" (0/8), the
 * documentation, benchmarking, AS112, AMT and reserved ranges.
 *
 * Refused in IPv6: everything outside 2000::/3, so every range that embeds an IPv4 address or
 * is not routed on the internet: unspecified, loopback, IPv4-compatible (::/96, so ::7f00:1 is
 * 127.0.0.1 and ::a9fe:a9fe is 169.254.169.254), IPv4-mapped (::ffff:0:0/96) and translated
 * (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard-only (100::/64), segment
 * routing (5f00::/16), unique local, site-local, link-local and multicast. Inside 2000::/3:
 * 6to4 (2002::/16) and Teredo (2001::/32), which embed an IPv4 address, whatever it is; the rest
 * of the IETF protocol block 2001::/23 (benchmarking, AMT, AS112, ORCHID, drone ids); the
 * documentation ranges 2001:db8::/32 and 3fff::/20; AS112 2620:4f:8000::/48.
 */
export const publicAddressesOnly: AddressPolicy = (address) => {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare) || !ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv4') return true;
  return (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST);
};

/** Any address: tests, and hosts on the local network an operator allows (e.g. GEM_FEEDS_ALLOW_PRIVATE_HOSTS). */
export const anyAddress: AddressPolicy = () => true;

export function addressPolicy(allowPrivateHosts: boolean): AddressPolicy {
  return allowPrivateHosts ? anyAddress : publicAddressesOnly;
}
