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
  const parsed = normalized(address);
  if (!parsed || parsed.range() !== 'unicast' || isMetadataService(parsed)) return false;
  if (parsed.kind() === 'ipv4') return true;
  return (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST);
};

/**
 * Addresses that no setting opens, though some are public or unique-local: the cloud providers'
 * metadata and host services (AWS's IPv6 metadata service, Azure's WireServer, Alibaba's
 * metadata service). 169.254.169.254 and the other link-local addresses are refused by range.
 */
const METADATA_SERVICES = new Set(['fd00:ec2::254', '168.63.129.16', '100.100.100.200']);

/** IPv4 ranges (ipaddr.js's names) a private-hosts setting opens besides public unicast. */
const LOCAL_IPV4 = new Set(['loopback', 'private']);
/** IPv6 ranges a private-hosts setting opens besides public unicast. */
const LOCAL_IPV6 = new Set(['loopback', 'uniqueLocal']);

function normalized(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare) || !ipaddr.isValid(bare)) return null;
  return ipaddr.parse(bare);
}

function isMetadataService(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  // toString() is the canonical form: lower case, zeros compressed.
  return METADATA_SERVICES.has(parsed.toString());
}

/**
 * GEM_FEEDS_ALLOW_PRIVATE_HOSTS and GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS: what publicAddressesOnly
 * allows, plus this machine (loopback) and the private networks (RFC 1918, IPv6 unique local), for
 * feeds and test sites on the local network. Never link-local (169.254.0.0/16 with the metadata
 * service at 169.254.169.254, fe80::/10), the metadata services above, carrier-grade NAT,
 * unspecified, multicast, broadcast or any other special range; an IPv4 address written as
 * IPv4-mapped IPv6 is judged as the IPv4 address it is.
 */
export const localOrPublicAddresses: AddressPolicy = (address) => {
  let parsed = normalized(address);
  if (!parsed) return false;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (isMetadataService(parsed)) return false;
  if (publicAddressesOnly(parsed.toString())) return true;
  return (parsed.kind() === 'ipv4' ? LOCAL_IPV4 : LOCAL_IPV6).has(parsed.range());
};

export function addressPolicy(allowPrivateHosts: boolean): AddressPolicy {
  return allowPrivateHosts ? localOrPublicAddresses : publicAddressesOnly;
}
