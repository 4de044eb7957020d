import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('loadConfig', () => {
  it('has defaults that work on a developer machine', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/charge_once');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.PORT).toBe(3000);
    expect(config.PROVIDER_CONNECT_TIMEOUT_MS).toBe(3000);
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_REPLICA_URL', 'standby:5433'],
    ['SUBMIT_RETRY_BACKOFF_MS', '1s,2s'],
    ['API_TOKENS', 'superuser:abcdefghijklmnopq'],
    ['PROVIDER_READ_TIMEOUT_MS', '0'],
  ])('stops with a message naming %s when it is malformed', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('leaves DATABASE_REPLICA_URL unset by default and takes a postgres:// URL', () => {
    expect(loadConfig({}).DATABASE_REPLICA_URL).toBeUndefined();
    expect(loadConfig({ DATABASE_REPLICA_URL: 'postgres://reader@standby:5432/charge_once' }).DATABASE_REPLICA_URL).toBe('postgres://reader@standby:5432/charge_once');
  });

  it('reads a delay list into numbers at boot, and names the list and the bad entry when it is malformed', () => {
    expect(loadConfig({ SUBMIT_RETRY_BACKOFF_MS: ' 500, 1000 ' }).SUBMIT_RETRY_BACKOFF_MS).toEqual([500, 1000]);
    expect(() => loadConfig({ RESOLUTION_BACKOFF_MS: '2000,,5000' })).toThrow(/RESOLUTION_BACKOFF_MS: entry 2 \(""\) is not a whole number/);
    expect(loadConfig({ RECONCILIATION_RETRY_BACKOFF_MS: '600000,3600000' }).RECONCILIATION_RETRY_BACKOFF_MS).toEqual([600_000, 3_600_000]);
  });

  it('takes QUEUE_PREFIX as a name or as a Redis Cluster hash tag in braces, and nothing else', () => {
    expect(loadConfig({ QUEUE_PREFIX: '{charge-once}' }).QUEUE_PREFIX).toBe('{charge-once}');
    expect(loadConfig({ QUEUE_PREFIX: 'prod:eu-1' }).QUEUE_PREFIX).toBe('prod:eu-1');
    for (const bad of ['{charge-once', 'a b', '{x}y']) expect(() => loadConfig({ QUEUE_PREFIX: bad })).toThrow(/QUEUE_PREFIX/);
  });

  it('takes a Sentinel set or a Cluster instead of REDIS_URL, and stops naming the variables when they are mixed or malformed', () => {
    expect(loadConfig({ REDIS_SENTINELS: 'a:26379,b:26379', REDIS_SENTINEL_NAME: 'main' }).REDIS_SENTINELS).toBe('a:26379,b:26379');
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'a:7000', QUEUE_PREFIX: '{charge-once}' }).REDIS_CLUSTER_NODES).toBe('a:7000');
    expect(() => loadConfig({ REDIS_URL: 'redis://r', REDIS_CLUSTER_NODES: 'a:7000', QUEUE_PREFIX: '{x}' })).toThrow(/REDIS_URL, REDIS_CLUSTER_NODES: set only one of/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:7000' })).toThrow(/QUEUE_PREFIX: must be a Redis Cluster hash tag/);
    expect(() => loadConfig({ REDIS_SENTINELS: 'a', REDIS_SENTINEL_NAME: 'main' })).toThrow(/REDIS_SENTINELS: entry 1 \("a"\) is not host:port/);
  });

  it('converts numeric settings from strings', () => {
    expect(loadConfig({ RESOLUTION_MAX_TRIES: '12' }).RESOLUTION_MAX_TRIES).toBe(12);
  });

  it('refuses a send lease shorter than a provider call can take', () => {
    expect(() => loadConfig({ SUBMIT_LEASE_MS: '10000', PROVIDER_READ_TIMEOUT_MS: '15000' })).toThrow(/SUBMIT_LEASE_MS: must exceed/);
  });

  it('trusts "not found" only after 5 minutes, and asks again 2 s after a lost response', () => {
    const config = loadConfig({});
    expect(config.CONSISTENT_LOOKUP_GRACE_MS).toBe(300_000);
    expect(config.RESOLUTION_BACKOFF_MS[0]).toBe(2000);
  });

  it('refuses a resolution schedule that gives up before "not found" can be trusted', () => {
    expect(() => loadConfig({ RESOLUTION_MAX_TRIES: '3' })).toThrow(/RESOLUTION_BACKOFF_MS: .*must outlast CONSISTENT_LOOKUP_GRACE_MS/);
  });

  it.each([
    ['unset', {}],
    ['the simulator default', { STRIPE_WEBHOOK_SECRET: 'whsec_dev_simulator' }],
  ])('refuses a real Stripe key with the webhook secret %s, naming the variable', (_name, env) => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_51Habc', ...env })).toThrow(/STRIPE_WEBHOOK_SECRET: must be set/);
  });

  it('accepts a real Stripe key with its own webhook secret, and the simulator key with the public one', () => {
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_live_51Habc', STRIPE_WEBHOOK_SECRET: 'whsec_real_secret' }).STRIPE_WEBHOOK_SECRET).toBe('whsec_real_secret');
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_simulator' }).STRIPE_SECRET_KEY).toBe('sk_test_simulator');
  });

  it('never puts the secret key in its message', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_51Hsupersecret' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('supersecret') }));
  });

  it('refuses a real Asaas key without the webhook token, and accepts the pair', () => {
    expect(() => loadConfig({ ASAAS_API_KEY: '$aact_prod_000' })).toThrow(/ASAAS_WEBHOOK_TOKEN: must be set when ASAAS_API_KEY is/);
    const config = loadConfig({ ASAAS_API_KEY: '$aact_prod_000', ASAAS_WEBHOOK_TOKEN: 'a-webhook-token-of-some-length' });
    expect(config.ASAAS_WEBHOOK_TOKEN).toBe('a-webhook-token-of-some-length');
    expect(loadConfig({}).ASAAS_API_KEY).toBeUndefined();
  });

  it.each([
    ['ASAAS_WEBHOOK_TOKEN', 'short'],
    ['ASAAS_QUERY_RATE_PER_S', '0'],
    ['RECONCILIATION_TZ', 'Mars/Olympus_Mons'],
  ])('stops with a message naming %s when it is malformed (Asaas settings)', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it.each([
    [{ RECONCILIATION_CRON: '0 2 * * *' }, null],
    [{ RECONCILIATION_CRON: '*/5 * * * * *' }, null],
    [{ RECONCILIATION_CRON: 'off' }, null],
    [{ RECONCILIATION_CRON: '0 2 * *' }, /RECONCILIATION_CRON/],
    [{ RECONCILIATION_CRON: '0 99 * * *' }, /RECONCILIATION_CRON/],
    [{ RECONCILIATION_TZ: 'Mars/Olympus' }, /RECONCILIATION_TZ/],
    [{ RECONCILIATION_SOURCE: 'ftp' }, /RECONCILIATION_SOURCE/],
  ])('reconciliation schedule %j', (env, problem) => {
    if (problem) expect(() => loadConfig(env)).toThrow(problem);
    else expect(() => loadConfig(env)).not.toThrow();
  });
});

describe('loadConfig: Efí settings', () => {
  const real = { EFI_CLIENT_ID: 'Client_Id_abc', EFI_CLIENT_SECRET: 'Client_Secret_supersecret', EFI_PIX_KEY: 'payouts@example.com.br' };

  it('defaults to the production Pix base and needs nothing while payouts are unused', () => {
    const config = loadConfig({});
    expect(config.EFI_API_BASE).toBe('https://pix.api.efipay.com.br');
    expect(config.EFI_CLIENT_SECRET).toBeUndefined();
  });

  it('refuses a real client secret with no way to authenticate webhooks, naming both settings, never the secret', () => {
    const run = () => loadConfig({ ...real, EFI_CERT_PATH: '/etc/hostname' });
    expect(run).toThrow(/EFI_WEBHOOK_CA_PATH or EFI_WEBHOOK_HMAC: one must be set/);
    expect(run).toThrow(expect.objectContaining({ message: expect.not.stringContaining('supersecret') }));
  });

  it('refuses a real client secret without the account certificate', () => {
    expect(() => loadConfig({ ...real, EFI_WEBHOOK_HMAC: 'h'.repeat(32) })).toThrow(/EFI_CERT_PATH: must be set/);
  });

  it('accepts a real secret with a certificate and a webhook setting, and the simulator secret with neither', () => {
    expect(loadConfig({ ...real, EFI_CERT_PATH: '/etc/hostname', EFI_WEBHOOK_HMAC: 'h'.repeat(32) }).EFI_PIX_KEY).toBe('payouts@example.com.br');
    expect(loadConfig({ ...real, EFI_CERT_PATH: '/etc/hostname', EFI_WEBHOOK_CA_PATH: '/etc/hostname' }).EFI_WEBHOOK_CA_PATH).toBe('/etc/hostname');
    expect(loadConfig({ ...real, EFI_CLIENT_SECRET: 'efi_simulator_secret' }).EFI_CLIENT_SECRET).toBe('efi_simulator_secret');
  });

  it.each([
    ['EFI_CLIENT_ID', { EFI_CLIENT_SECRET: 'efi_simulator_secret', EFI_PIX_KEY: 'k' }],
    ['EFI_PIX_KEY', { EFI_CLIENT_SECRET: 'efi_simulator_secret', EFI_CLIENT_ID: 'id' }],
    ['EFI_CERT_PATH', { EFI_CERT_PATH: '/no/such/cert.p12' }],
    ['EFI_API_BASE', { EFI_API_BASE: 'pix.api.efipay.com.br' }],
    ['EFI_WEBHOOK_HMAC', { EFI_WEBHOOK_HMAC: 'short' }],
    ['EFI_PIX_KEY', { EFI_PIX_KEY: 'k'.repeat(78) }],
  ])('stops with a message naming %s', (name, env) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}:`));
  });
});
