import { lookup } from 'node:dns/promises';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Where the server may call on a user's behalf (server-side request forgery, ADR 26): a connector URL
 * a person typed (ActiveCampaign today, any future connector) must be https and resolve only to
 * public addresses. One check for the gateway, which refuses the URL when it is saved, and for the
 * connectors, which check again before each call (a name can resolve elsewhere later) and call the
 * addresses this returns.
 */

/** Private, loopback, link-local, shared (CGNAT), multicast, reserved and unspecified IPv4 ranges. */
const ipv4Ranges: [string, number][] = [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** The same for IPv6; addresses that embed an IPv4 address are judged by that address. */
const ipv6Ranges: [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed by some)
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [network, prefix] of ipv4Ranges) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of ipv6Ranges) blocked.addSubnet(network, prefix, 'ipv6');

/** The 128 bits of an IPv6 address as eight 16-bit groups. */
const groupsOf = (address: string): number[] | null => {
  let text = address.toLowerCase().split('%')[0] ?? '';
  // A dotted IPv4 tail (::ffff:10.0.0.1) becomes two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const bytes = tail[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
};

const ipv4From = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 address stands for: IPv4-mapped, IPv4-compatible, NAT64 or 6to4. */
const embeddedIpv4 = (groups: number[]): string | null => {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroUpTo(5) && g5 === 0xffff) return ipv4From(g6, g7); // ::ffff:a.b.c.d
  if (zeroUpTo(6) && (g6 !== 0 || g7 > 1)) return ipv4From(g6, g7); // ::a.b.c.d (deprecated)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4From(g6, g7);
  if (g0 === 0x2002 && g1 !== undefined && g2 !== undefined) return ipv4From(g1, g2); // 6to4
  return null;
};

/** True when the server must not call this address on a user's behalf. */
export const isNonPublicAddress = (address: string): boolean => {
  if (isIPv4(address)) return blocked.check(address, 'ipv4');
  if (!isIPv6(address)) return true; // not an address at all: refuse rather than guess
  const groups = groupsOf(address);
  if (!groups) return true;
  const ipv4 = embeddedIpv4(groups);
  if (ipv4 !== null) return blocked.check(ipv4, 'ipv4');
  return blocked.check(address.split('%')[0] ?? address, 'ipv6');
};

export type ResolveHost = (hostname: string) => Promise<string[]>;

const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export type ConnectorUrlVerdict = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

export const connectorUrlReasons = {
  invalid: 'The URL is not valid.',
  https: 'The URL must start with https://.',
  credentials: 'The URL must not contain a user name or password.',
  unresolved: 'The host name of the URL could not be found.',
  notPublic: 'The URL must point to a public internet address.',
} as const;

/**
 * Checks a URL the server will call for a connector. `resolve` is the DNS lookup (tests pass their
 * own); every address the name resolves to must be public, as the call may reach any of them.
 */
export const checkConnectorUrl = async (
  text: string,
  resolve: ResolveHost = resolveWithDns,
): Promise<ConnectorUrlVerdict> => {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, reason: connectorUrlReasons.invalid };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: connectorUrlReasons.https };
  if (url.username || url.password) return { ok: false, reason: connectorUrlReasons.credentials };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return { ok: false, reason: connectorUrlReasons.invalid };
  let addresses: string[];
  if (isIPv4(host) || isIPv6(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { ok: false, reason: connectorUrlReasons.unresolved };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: connectorUrlReasons.unresolved };
  if (addresses.some(isNonPublicAddress)) return { ok: false, reason: connectorUrlReasons.notPublic };
  return { ok: true, url, addresses };
};
