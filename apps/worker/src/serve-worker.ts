// The process's app, imported by main.ts once tracing (when configured) has started.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '@app/config';
import { WorkerHttpModule } from './worker-http.module.js';

const app = await NestFactory.create<NestExpressApplication>(WorkerHttpModule, { bufferLogs: true });
app.useLogger(app.get(Logger));
app.disable('x-powered-by');
app.enableShutdownHooks();
await app.listen(app.get(AppConfig).WORKER_HTTP_PORT);
app.get(Logger).log(`worker /health and /metrics on port ${(app.getHttpServer().address() as { port: number }).port}`);
