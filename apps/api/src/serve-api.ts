// The process's app, imported by main.ts once tracing (when configured) has started.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, loadConfigOrExit } from '@app/config';
import { listenMetrics } from '@app/observability';
import { ApiModule } from './api.module.js';
import { configureApiApp } from './configure-api-app.js';
import { listenEfiWebhookTls } from './edge/efi-webhook.tls.js';
import { createApiHttpAdapter } from './edge/http-hardening.js';

// rawBody: webhook signatures are computed over the exact bytes received.
const adapter = createApiHttpAdapter(loadConfigOrExit());
const app = await configureApiApp(await NestFactory.create<NestFastifyApplication>(ApiModule, adapter, { bufferLogs: true, rawBody: true }));
// Every IPv4 interface, as Express did (Fastify alone would listen on localhost only): compose maps the port from outside.
await app.listen(app.get(AppConfig).PORT, '0.0.0.0');
// Efí's mutual-TLS webhook listener, when EFI_WEBHOOK_TLS_PORT is set.
await listenEfiWebhookTls(app);
// The api's figures on their own port (loopback by default) when no token guards them on the api's port.
const { METRICS_PORT, METRICS_HOST, METRICS_TOKEN } = app.get(AppConfig);
if (!METRICS_TOKEN) (await listenMetrics(METRICS_PORT, METRICS_HOST)).server.unref();
