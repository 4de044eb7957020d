import helmet from '@fastify/helmet';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RawServerDefault } from 'fastify';
import type { AppConfig } from '@app/config';

/**
 * The api's HTTP server: Fastify, with bounded bodies (provider events can outgrow the usual 100 kB, and a 413
 * would be retried by the provider for days) and the proxies allowed to name the client's address.
 */
export function createApiHttpAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({ bodyLimit: config.MAX_BODY_BYTES, ...(config.TRUST_PROXY ? { trustProxy: trustProxyOf(config.TRUST_PROXY) } : {}) });
}

/** TRUST_PROXY as Express read it: a hop count, or addresses and presets (`loopback`, `10.0.0.0/8`, comma separated). */
function trustProxyOf(setting: string): string | ((address: string, hop: number) => boolean) {
  if (!/^\d+$/.test(setting)) return setting;
  const hops = Number(setting);
  return (_address, hop) => hop < hops;
}

/**
 * The edge of the api: helmet's security headers (its default Content-Security-Policy suits the console, the docs
 * and the queue board, which load only their own scripts), and JSON bodies as clients already send them. Fastify
 * sends no x-powered-by.
 */
export async function hardenHttp(app: NestFastifyApplication): Promise<void> {
  const json = app.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error');
  // `POST /charges/:id/submit` with `Content-Type: application/json` and no body is how clients call it (and how
  // Express took it): an empty JSON body is `{}`, not Fastify's 400. Anything else is Fastify's own parser.
  app.useBodyParser<RawServerDefault>('application/json', {}, (req, body, done) => (body.length === 0 ? done(null, {}) : json(req, body.toString('utf8'), done)));
  // The api is served over plain HTTP in development and behind a TLS proxy in production: upgrading
  // subresource requests would break the former and do nothing for the latter.
  await app.register(helmet, { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });
}
