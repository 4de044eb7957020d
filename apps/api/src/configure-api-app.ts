import { type INestApplication, ValidationPipe } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { DomainErrorFilter } from './domain-error.filter.js';

/** Everything main.ts and the e2e tests must set up identically. */
export function configureApiApp(app: INestApplication): INestApplication {
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      // 400 before any handler runs, so bad input never writes anything.
      stopAtFirstError: false,
    }),
  );
  app.useGlobalFilters(new DomainErrorFilter());
  app.enableShutdownHooks();
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('charge-once')
      .setDescription('Charges that happen exactly once, payouts that never go out twice.')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document);
  return app;
}
