import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';

/**
 * Efí authenticates its sent-Pix webhooks with mutual TLS. With EFI_WEBHOOK_TLS_PORT set, the api serves the Efí
 * route (and nothing else) over HTTPS on that port, asking every client for a certificate and refusing, at the
 * handshake, one that does not chain to EFI_WEBHOOK_CA_PATH. The decoder then sees `socket.authorized` and accepts
 * the delivery; the same app, body parser and ingest serve it as on the plain port.
 */
export async function listenEfiWebhookTls(app: NestFastifyApplication): Promise<{ server: Server; port: number } | null> {
  const config = app.get(AppConfig);
  if (config.EFI_WEBHOOK_TLS_PORT === undefined) return null;
  // Fastify's own request handler (routing): the same routes, hooks and body parser as the plain port.
  const handle = app.getHttpAdapter().getInstance().routing;
  const server = createServer(
    {
      key: readFileSync(config.EFI_WEBHOOK_TLS_KEY_PATH!),
      cert: readFileSync(config.EFI_WEBHOOK_TLS_CERT_PATH!),
      ca: readFileSync(config.EFI_WEBHOOK_CA_PATH!),
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    },
    (req, res) => {
      if (!req.url?.startsWith('/webhooks/efi')) {
        res.statusCode = 404;
        res.end();
        return;
      }
      handle(req, res);
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.EFI_WEBHOOK_TLS_PORT, resolve);
  });
  return { server, port: (server.address() as AddressInfo).port };
}
