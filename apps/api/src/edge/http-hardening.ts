import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AppConfig } from '@app/config';

/**
 * The edge of the api: helmet's security headers (its default Content-Security-Policy suits the console,
 * the docs and the queue board, which load only their own scripts), no x-powered-by, and bounded bodies.
 */
export function hardenHttp(app: NestExpressApplication): void {
  const config = app.get(AppConfig);
  app.disable('x-powered-by');
  // The api is served over plain HTTP in development and behind a TLS proxy in production: upgrading
  // subresource requests would break the former and do nothing for the latter.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  // Provider events can outgrow Express's 100 kB default; a 413 would be retried by the provider for days.
  app.useBodyParser('json', { limit: config.MAX_BODY_BYTES });
  app.useBodyParser('urlencoded', { limit: config.MAX_BODY_BYTES, extended: false });
}
