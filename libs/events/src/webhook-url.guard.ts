import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WebhookUrlRefusedError } from './events.errors.js';

/**
 * Addresses a merchant's URL must never reach: our loopback, private networks, link-local (cloud metadata) and the
 * like, plus the documentation and relay ranges no receiver lives in. IPv6 forms that carry an IPv4 address
 * (IPv4-compatible ::/96, SIIT ::ffff:0:0:0/96, NAT64, 6to4, Teredo) are refused whole: the IPv4 inside could be
 * any of the above. (Node's BlockList already reads ::ffff:a.b.c.d as a.b.c.d against the IPv4 rules.)
 */
const INTERNAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96], ['::1', 128], ['::ffff:0:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32],
  ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) INTERNAL.addSubnet(net, bits, 'ipv6');

export type HostResolver = (host: string) => Promise<string[]>;

const systemResolver: HostResolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? INTERNAL.check(mapped[1], 'ipv4') : INTERNAL.check(address, 'ipv6');
}

/**
 * Where a delivery may go: `https` to a name whose every address is public. Checked when an endpoint is created and
 * again before every delivery, since a name can be pointed inside our network after it was accepted. Returns the
 * addresses it checked, so the caller can connect to exactly those (no second lookup an attacker could answer
 * differently). `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_URLS=true) lifts both rules for local setups.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, resolve: HostResolver = systemResolver): Promise<{ url: URL; addresses: string[] }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefusedError('must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new WebhookUrlRefusedError('must be https');
  if (url.username || url.password) throw new WebhookUrlRefusedError('must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw new WebhookUrlRefusedError(`${host} does not resolve`);
  }
  if (addresses.length === 0) throw new WebhookUrlRefusedError(`${host} does not resolve`);
  if (!allowPrivate && addresses.some(isInternalAddress)) throw new WebhookUrlRefusedError(`${host} resolves to a loopback, private, link-local or metadata address`);
  return { url, addresses };
}
