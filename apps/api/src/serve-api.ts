// The process's app, imported by main.ts once tracing (when configured) has started.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '@app/config';
import { ApiModule } from './api.module.js';
import { configureApiApp } from './configure-api-app.js';
import { listenEfiWebhookTls } from './edge/efi-webhook.tls.js';

// rawBody: webhook signatures are computed over the exact bytes received.
const app = configureApiApp(await NestFactory.create<NestExpressApplication>(ApiModule, { bufferLogs: true, rawBody: true }));
await app.listen(app.get(AppConfig).PORT);
// Efí's mutual-TLS webhook listener, when EFI_WEBHOOK_TLS_PORT is set.
await listenEfiWebhookTls(app);
