import { describe, expect, it } from 'vitest';
import { withoutQuery } from './logger.module.js';

describe('withoutQuery', () => {
  it("cuts the query (Efí's hmac) off a webhook route's url and drops its parsed form", () => {
    const logged = withoutQuery({ method: 'POST', url: '/webhooks/efi/pix?hmac=s3cret&ignorar=', query: { hmac: 's3cret' } });
    expect(logged).toEqual({ method: 'POST', url: '/webhooks/efi/pix?[redacted]', query: undefined });
    expect(JSON.stringify(logged)).not.toContain('s3cret');
  });

  it('cuts it off every other spelling and route too: a route is not known from its raw url', () => {
    for (const url of ['/%77ebhooks/efi/pix?hmac=s3cret', 'http://x/webhooks/efi/pix?hmac=s3cret', '/WEBHOOKS/efi?hmac=s3cret', '/review/items?state=open']) {
      expect(JSON.stringify(withoutQuery({ url, query: { hmac: 's3cret', state: 'open' } }))).not.toMatch(/s3cret|state=open/);
    }
  });

  it('leaves a url without a query as it is', () => {
    expect(withoutQuery({ method: 'GET', url: '/review/items' })).toEqual({ method: 'GET', url: '/review/items', query: undefined });
  });
});
