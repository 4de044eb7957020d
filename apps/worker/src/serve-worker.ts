// The process's app, imported by main.ts once tracing (when configured) has started.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '@app/config';
import { WorkerHttpModule } from './worker-http.module.js';

const app = await NestFactory.create<NestFastifyApplication>(WorkerHttpModule, new FastifyAdapter(), { bufferLogs: true });
app.useLogger(app.get(Logger));
app.enableShutdownHooks();
// Every interface, as the api: the launcher and compose probe /health on 127.0.0.1, Prometheus from outside.
await app.listen(app.get(AppConfig).WORKER_HTTP_PORT, '0.0.0.0');
app.get(Logger).log(`worker /health and /metrics on port ${(app.getHttpServer().address() as { port: number }).port}`);
