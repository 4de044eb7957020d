import { describe, expect, it } from 'vitest';
import { WebhookUrlRefusedError } from './events.errors.js';
import { checkWebhookUrl, isInternalAddress, type HostResolver } from './webhook-url.guard.js';

/** A resolver that answers from a table and counts its lookups, so no case depends on real DNS. */
function resolverOf(table: Record<string, string[] | Error>): HostResolver & { lookups: string[] } {
  const lookups: string[] = [];
  const resolve = (host: string) => {
    lookups.push(host);
    const answer = table[host] ?? new Error(`ENOTFOUND ${host}`);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return Object.assign(resolve, { lookups });
}

const DNS = {
  'private.example': ['10.0.0.5'],
  'loopback6.example': ['::1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'mapped-hex.example': ['::ffff:7f00:1'],
  'linklocal6.example': ['fe80::1'],
  'metadata.example': ['169.254.169.254'],
  'ula.example': ['fd12:3456::1'],
  'nat64.example': ['64:ff9b::a00:5'],
  'sixtofour.example': ['2002:7f00:1::'],
  'mixed.example': ['93.184.216.34', '10.0.0.5'],
  'public.example': ['93.184.216.34'],
  'public6.example': ['2606:4700::1111'],
  'dual.example': ['93.184.216.34', '2606:4700::1111'],
  'nothing.example': [],
  'broken.example': new Error('SERVFAIL'),
};

describe('checkWebhookUrl', () => {
  // [url, allowPrivate, accepted, what the refusal says]
  const cases: Array<[string, boolean, boolean, string?]> = [
    ['https://private.example/hook', false, false, 'loopback, private'],
    ['https://loopback6.example/hook', false, false, 'loopback, private'],
    ['https://mapped.example/hook', false, false, 'loopback, private'],
    ['https://mapped-hex.example/hook', false, false, 'loopback, private'],
    ['https://linklocal6.example/hook', false, false, 'loopback, private'],
    ['https://metadata.example/latest/meta-data', false, false, 'loopback, private'],
    ['https://ula.example/hook', false, false, 'loopback, private'],
    ['https://nat64.example/hook', false, false, 'loopback, private'],
    ['https://sixtofour.example/hook', false, false, 'loopback, private'],
    ['https://mixed.example/hook', false, false, 'loopback, private'],
    ['https://nothing.example/hook', false, false, 'does not resolve'],
    ['https://broken.example/hook', false, false, 'does not resolve'],
    ['https://unknown.example/hook', false, false, 'does not resolve'],
    ['https://127.0.0.1/x', false, false, 'loopback, private'],
    ['https://10.1.2.3/x', false, false, 'loopback, private'],
    ['https://169.254.169.254/latest/meta-data', false, false, 'loopback, private'],
    ['https://[::1]/x', false, false, 'loopback, private'],
    ['https://[::ffff:127.0.0.1]/x', false, false, 'loopback, private'],
    ['https://[::127.0.0.1]/x', false, false, 'loopback, private'],
    ['https://[fe80::1]/x', false, false, 'loopback, private'],
    // The WHATWG parser reads these as 127.0.0.1; the check sees what a connection would reach.
    ['https://0x7f000001/x', false, false, 'loopback, private'],
    ['https://2130706433/x', false, false, 'loopback, private'],
    ['https://127.1/x', false, false, 'loopback, private'],
    ['http://public.example/x', false, false, 'must be https'],
    ['ftp://public.example/x', false, false, 'must be https'],
    ['ftp://public.example/x', true, false, 'must be https'],
    ['https://user:pass@public.example/x', false, false, 'credentials'],
    ['not a url', false, false, 'absolute URL'],
    ['/relative/path', true, false, 'absolute URL'],
    ['https://public.example/hook', false, true],
    ['https://public6.example/hook', false, true],
    ['https://dual.example/hook', false, true],
    ['https://93.184.216.34/hook', false, true],
    ['https://[2606:4700::1111]/hook', false, true],
    ['https://private.example/hook', true, true],
    ['http://127.0.0.1:8080/hook', true, true],
    ['http://[::1]:8080/hook', true, true],
  ];

  it.each(cases)('%s (allowPrivate %s): accepted %s', async (raw, allowPrivate, accepted, says) => {
    const resolve = resolverOf(DNS);
    const checking = checkWebhookUrl(raw, allowPrivate, resolve);
    if (accepted) {
      const { url, addresses } = await checking;
      expect(url.href).toBe(new URL(raw).href);
      expect(addresses.length).toBeGreaterThan(0);
      return;
    }
    const error = await checking.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookUrlRefusedError);
    expect((error as WebhookUrlRefusedError).message).toContain(says!);
    expect((error as WebhookUrlRefusedError).message).toMatch(/^url: /);
    expect((error as WebhookUrlRefusedError).details).toEqual({ field: 'url' });
  });

  it('answers the addresses it checked, so a deliverer connects to exactly those', async () => {
    await expect(checkWebhookUrl('https://dual.example/hook', false, resolverOf(DNS))).resolves.toMatchObject({ addresses: ['93.184.216.34', '2606:4700::1111'] });
  });

  it('asks no resolver for an address literal or a scheme it refuses', async () => {
    const resolve = resolverOf(DNS);
    await checkWebhookUrl('https://93.184.216.34/hook', false, resolve);
    await checkWebhookUrl('http://public.example/x', false, resolve).catch(() => undefined);
    expect(resolve.lookups).toEqual([]);
  });
});

describe('isInternalAddress', () => {
  const internal = ['127.0.0.1', '127.255.255.254', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.51.100.7', '203.0.113.9', '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.5',
    '::7f00:1', '::ffff:0:7f00:1', 'fe80::1', 'fd00::1', 'fc00::1', 'fec0::1', 'ff02::1', '64:ff9b::7f00:1', '2002:a00:5::', '2001:0:4136:e378::1', '2001:db8::1', 'not-an-ip'];
  const external = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8', '2606:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::200e'];
  it.each(internal)('%s is internal', (address) => expect(isInternalAddress(address)).toBe(true));
  it.each(external)('%s is public', (address) => expect(isInternalAddress(address)).toBe(false));
});
