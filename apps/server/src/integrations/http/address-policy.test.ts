import { describe, expect, it } from 'vitest';
import { addressPolicy, localOrPublicAddresses, publicAddressesOnly } from './address-policy';

/** The SSRF address policy: public unicast addresses only, in every notation. */

describe('publicAddressesOnly', () => {
  it.each([
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network", 0/8'],
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private, 10/8'],
    ['172.16.0.1', 'private, 172.16/12'],
    ['192.168.0.1', 'private, 192.168/16'],
    ['169.254.169.254', 'link-local: the cloud metadata service'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['192.0.0.8', 'IETF protocol assignments, 192.0.0/24'],
    ['192.0.2.1', 'documentation, TEST-NET-1'],
    ['198.51.100.1', 'documentation, TEST-NET-2'],
    ['203.0.113.1', 'documentation, TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.31.196.1', 'AS112'],
    ['192.52.193.1', 'AMT'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved, 240/4'],
    ['255.255.255.255', 'broadcast'],
    // IPv6 outside 2000::/3
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1 (::/96)'],
    ['::127.0.0.1', 'IPv4-compatible, dotted'],
    ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['::808:808', 'IPv4-compatible, even of a public address'],
    ['[::7f00:1]', 'IPv4-compatible, in brackets'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped, hex'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['::ffff:0:7f00:1', 'IPv4-translated (::ffff:0:0:0/96)'],
    ['64:ff9b::7f00:1', 'NAT64 (64:ff9b::/96) of loopback'],
    ['64:ff9b::808:808', 'NAT64, even of a public address'],
    ['64:ff9b:1::a9fe:a9fe', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['100::1', 'discard-only (100::/64)'],
    ['5f00::1', 'segment routing (5f00::/16)'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'unassigned, outside 2000::/3'],
    // IPv6 special ranges inside 2000::/3
    ['2002:7f00:1::1', '6to4 of loopback (2002::/16)'],
    ['2002:808:808::1', '6to4, even of a public address'],
    ['2001::1', 'Teredo (2001::/32)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:2::1', 'benchmarking (2001:2::/48)'],
    ['2001:3::1', 'AMT (2001:3::/32)'],
    ['2001:4:112::1', 'AS112 (2001:4:112::/48)'],
    ['2001:10::1', 'ORCHID (2001:10::/28)'],
    ['2001:20::1', 'ORCHIDv2 (2001:20::/28)'],
    ['2001:30::1', 'drone remote id (2001:30::/28)'],
    ['2001:1ff::1', 'IETF protocol assignments (2001::/23)'],
    ['2001:db8::1', 'documentation (2001:db8::/32)'],
    ['3fff::1', 'documentation (3fff::/20)'],
    ['2620:4f:8000::1', 'AS112 (2620:4f:8000::/48)'],
    // Not addresses
    ['', 'empty'],
    ['not-an-ip', 'a name'],
    ['127.1', 'shorthand IPv4'],
    ['0x7f000001', 'hex IPv4'],
    ['2130706433', 'decimal IPv4'],
  ])('refuses %s (%s)', (address) => {
    expect(publicAddressesOnly(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '[2606:4700:4700::1111]',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '2c0f:fb50:4003::8a',
  ])('allows the public address %s', (address) => {
    expect(publicAddressesOnly(address)).toBe(true);
  });

  it('is the policy unless private hosts are allowed', () => {
    expect(addressPolicy(false)).toBe(publicAddressesOnly);
    expect(addressPolicy(true)).toBe(localOrPublicAddresses);
  });

  it.each(['168.63.129.16', 'fd00:ec2::254'])(
    'refuses the metadata service at %s, though it is unicast',
    (address) => {
      expect(publicAddressesOnly(address)).toBe(false);
    },
  );
});

describe('localOrPublicAddresses (a private-hosts setting)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '::1',
    '[::1]',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '8.8.8.8',
    '2606:4700:4700::1111',
  ])('allows %s: loopback, private networks and the public internet', (address) => {
    expect(localOrPublicAddresses(address)).toBe(true);
  });

  it.each([
    ['169.254.169.254', 'the cloud metadata service (link-local)'],
    ['169.254.0.1', 'link-local'],
    ['::ffff:169.254.169.254', 'the metadata service, IPv4-mapped'],
    ['::ffff:a9fe:a9fe', 'the metadata service, IPv4-mapped in hex'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['febf::1', 'the end of fe80::/10'],
    ['fd00:ec2::254', "AWS's IPv6 metadata service (unique local)"],
    ['fd00:ec2:0:0:0:0:0:254', 'the same, written out'],
    ['168.63.129.16', "Azure's WireServer"],
    ['100.100.100.200', "Alibaba's metadata service (carrier-grade NAT)"],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['198.18.0.1', 'benchmarking'],
    ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata service'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata service'],
    ['fec0::1', 'site-local (deprecated)'],
    ['not-an-ip', 'a name'],
  ])('refuses %s (%s)', (address) => {
    expect(localOrPublicAddresses(address)).toBe(false);
  });
});
