import { ValidationPipe } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { DomainErrorFilter } from './domain-error.filter.js';
import { HttpErrorFilter } from './http-error.filter.js';
import { mountQueueBoard } from './admin/queue-board.js';
import { hardenHttp } from './edge/http-hardening.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';

/** Everything serve-api.ts and the e2e tests must set up identically (the http adapter: createApiHttpAdapter). */
export async function configureApiApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  app.useLogger(app.get(Logger));
  await hardenHttp(app);
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      // 400 before any handler runs, so bad input never writes anything.
      stopAtFirstError: false,
    }),
  );
  const adapterHost = app.get(HttpAdapterHost);
  app.useGlobalFilters(new HttpErrorFilter(adapterHost), new DomainErrorFilter(adapterHost));
  app.enableShutdownHooks();
  // Built on the first /docs request, not at boot: every process would otherwise hold a document few ever read.
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app));
  await mountQueueBoard(app);
  return app;
}
