import { HttpAdapterHost } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger, PinoLogger } from 'nestjs-pino';
import { logRequests } from '@app/observability';
import { DatabaseUnavailableFilter } from './database-unavailable.filter.js';
import { DomainErrorFilter } from './domain-error.filter.js';
import { HttpErrorFilter } from './http-error.filter.js';
import { mountQueueBoard } from './admin/queue-board.js';
import { CompiledValidationPipe } from './edge/compiled-validation.pipe.js';
import { hardenHttp } from './edge/http-hardening.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';

/** Everything serve-api.ts and the e2e tests must set up identically (the http adapter: createApiHttpAdapter). */
export async function configureApiApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  app.useLogger(app.get(Logger));
  logRequests(app.getHttpAdapter().getInstance(), PinoLogger.root);
  await hardenHttp(app);
  app.useGlobalPipes(new CompiledValidationPipe());
  const adapterHost = app.get(HttpAdapterHost);
  // The catch-all first: Nest asks the last-registered filter first, so the specific ones win.
  app.useGlobalFilters(new DatabaseUnavailableFilter(adapterHost), new HttpErrorFilter(adapterHost), new DomainErrorFilter(adapterHost));
  app.enableShutdownHooks();
  // Built on the first /docs request, not at boot: every process would otherwise hold a document few ever read.
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app));
  await mountQueueBoard(app);
  return app;
}
