import { describe, expect, it } from 'vitest';
import { withoutWebhookQuery } from './logger.module.js';

describe('withoutWebhookQuery', () => {
  it('cuts the query (Efí\'s hmac) off a webhook route\'s url and drops its parsed form', () => {
    const logged = withoutWebhookQuery({ method: 'POST', url: '/webhooks/efi/pix?hmac=s3cret&ignorar=', query: { hmac: 's3cret' } });
    expect(logged).toEqual({ method: 'POST', url: '/webhooks/efi/pix?[redacted]', query: undefined });
    expect(JSON.stringify(logged)).not.toContain('s3cret');
  });

  it('leaves other routes as they are', () => {
    const req = { method: 'GET', url: '/review/items?state=open', query: { state: 'open' } };
    expect(withoutWebhookQuery(req)).toBe(req);
  });
});
