import { request } from 'node:https';
import { join } from 'node:path';
import type { Server } from 'node:https';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenEfiWebhookTls } from '../apps/api/src/edge/efi-webhook.tls.js';
import { makeTestCertificates, type TestCertificates } from './support/test-certificates.js';
import { startTestStack, type TestStack } from './support/test-stack.js';

/**
 * Efí's webhook over mutual TLS on the api's own port (EFI_WEBHOOK_TLS_PORT), with certificates made at test time:
 * a client certificate from the configured CA is accepted, none or another CA's is refused at the handshake, and
 * nothing but the Efí route is served there.
 */
describe("Efí's webhook over mutual TLS", () => {
  let certs: TestCertificates;
  let stack: TestStack;
  let tls: { server: Server; port: number };
  beforeAll(async () => {
    certs = makeTestCertificates();
    stack = await startTestStack({
      env: {
        EFI_WEBHOOK_CA_PATH: join(certs.dir, 'ca.pem'),
        EFI_WEBHOOK_TLS_PORT: '0',
        EFI_WEBHOOK_TLS_CERT_PATH: join(certs.dir, 'server.pem'),
        EFI_WEBHOOK_TLS_KEY_PATH: join(certs.dir, 'server.key'),
      },
    });
    tls = (await listenEfiWebhookTls(stack.app as NestFastifyApplication))!;
  });
  afterAll(async () => {
    await new Promise((resolve) => tls.server.close(resolve));
    await stack.close();
    certs.remove();
  });

  const post = (path: string, client: { key: string; cert: string } | null, body: unknown) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: tls.port, path, method: 'POST', ca: certs.ca, headers: { 'content-type': 'application/json' }, ...(client ?? {}) },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const pix = { pix: [{ endToEndId: `E${Date.now()}`, valor: '10.00', status: 'REALIZADO', gnExtras: { idEnvio: 'a'.repeat(32) } }] };
  const events = async () => (await stack.db.query(`SELECT count(*)::int AS n FROM webhook_events WHERE provider = 'efi'`))[0].n as number;

  it('accepts a delivery whose client certificate chains to the configured CA', async () => {
    const before = await events();
    const res = await post('/webhooks/efi/pix', { key: certs.clientKey, cert: certs.clientCert }, pix);
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ duplicate: false, disposition: 'unmatched' });
    expect(await events()).toBe(before + 1);
  });

  it('refuses a client with no certificate, or one from another CA, before any request, changing nothing', async () => {
    const before = await events();
    await expect(post('/webhooks/efi/pix', null, pix)).rejects.toThrow();
    const stranger = (await import('node:fs')).readFileSync(certs.strangerPemPath, 'utf8');
    await expect(post('/webhooks/efi/pix', { key: stranger, cert: stranger }, pix)).rejects.toThrow();
    expect(await events()).toBe(before);
  });

  it('serves nothing but the Efí route on that port', async () => {
    const res = await post('/charges', { key: certs.clientKey, cert: certs.clientCert }, {});
    expect(res.status).toBe(404);
  });
});
