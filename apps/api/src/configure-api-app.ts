import { ValidationPipe } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '@app/config';
import { DomainErrorFilter } from './domain-error.filter.js';
import { HttpErrorFilter } from './http-error.filter.js';
import { mountQueueBoard } from './admin/queue-board.js';
import { hardenHttp } from './edge/http-hardening.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';

/** Everything serve-api.ts and the e2e tests must set up identically. */
export function configureApiApp(app: NestExpressApplication): NestExpressApplication {
  app.useLogger(app.get(Logger));
  const trustProxy = app.get(AppConfig).TRUST_PROXY;
  if (trustProxy) app.set('trust proxy', /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy);
  hardenHttp(app);
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      // 400 before any handler runs, so bad input never writes anything.
      stopAtFirstError: false,
    }),
  );
  app.useGlobalFilters(new HttpErrorFilter(app.get(HttpAdapterHost)), new DomainErrorFilter());
  app.enableShutdownHooks();
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app));
  mountQueueBoard(app);
  return app;
}
