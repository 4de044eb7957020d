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
    ['SUBMIT_RETRY_BACKOFF_MS', '1s,2s'],
    ['API_TOKENS', 'superuser:abcdefghijklmnopq'],
    ['PROVIDER_READ_TIMEOUT_MS', '0'],
  ])('stops with a message naming %s when it is malformed', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('converts numeric settings from strings', () => {
    expect(loadConfig({ RESOLUTION_MAX_TRIES: '3' }).RESOLUTION_MAX_TRIES).toBe(3);
  });

  it('refuses a send lease shorter than a provider call can take', () => {
    expect(() => loadConfig({ SUBMIT_LEASE_MS: '10000', PROVIDER_READ_TIMEOUT_MS: '15000' })).toThrow(/SUBMIT_LEASE_MS: must exceed/);
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
