import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { LoggerModule as PinoLoggerModule } from 'nestjs-pino';
import type { LogFn, Logger as PinoLogger } from 'pino';
import { AppConfig } from '@app/config';
import { errorWithoutValues } from './error-without-values.js';
import { activeTraceFields } from './tracing/spans.js';
import { stopTracing } from './tracing/start-tracing.js';

/** Both processes load this module, so the spans still batched at shutdown are exported here, not dropped. */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

/** Nest's boot narration (every module loaded, every route mapped): useful when debugging, noise at info. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);
const INFO = 30;

/**
 * Structured JSON logs (pino); the redaction list keeps tokens, signatures and provider keys out of every line,
 * and LOG_FORMAT=pretty renders them for a person instead. The api's access log is a Fastify hook
 * (access-log.ts), not pino-http's middleware: nestjs-pino only builds the root logger here.
 */
@Module({
  imports: [
    PinoLoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // No route: the access log is logRequests' hook, and no request runs inside nestjs-pino's storage.
        forRoutes: [],
        pinoHttp: pinoOptions(config),
      }),
    }),
  ],
  providers: [TracingShutdown],
})
export class LoggerModule {}

/** The root logger's options: the api and the worker log through these, and the log tests build from them. */
export function pinoOptions(config: Pick<AppConfig, 'LOG_LEVEL' | 'LOG_FORMAT' | 'OTEL_EXPORTER_OTLP_ENDPOINT'>) {
  return {
    level: config.LOG_LEVEL,
    ...(config.LOG_FORMAT === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
    hooks: { logMethod: demoteBootChatter },
    // A line logged inside a span names its trace, so a log line leads to the trace (only when tracing is on).
    ...(config.OTEL_EXPORTER_OTLP_ENDPOINT ? { mixin: activeTraceFields } : {}),
    // A webhook URL may carry a secret (Efí's hmac): no query string reaches a log line; nor does any value a
    // failed SQL statement was given (a payee's Pix key, an order id).
    serializers: { req: withoutQuery, err: errorWithoutValues },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["stripe-signature"]',
        'req.headers["asaas-access-token"]',
        'req.headers.cookie',
        '*.secretKey',
        '*.token',
      ],
      censor: '[redacted]',
    },
  };
}

/**
 * A serialized request without its query string, on every route: a webhook URL may carry a secret (Efí's hmac), and
 * a route cannot be told from its raw URL (`/%77ebhooks/...` and absolute-form request lines reach the same
 * handler), so no query is logged at all.
 */
export function withoutQuery<R extends { url?: string; query?: unknown }>(req: R): R {
  const cut = typeof req.url === 'string' ? req.url.indexOf('?') : -1;
  return { ...req, url: cut === -1 ? req.url : `${req.url!.slice(0, cut)}?[redacted]`, query: undefined };
}

/** Logs Nest's boot lines at debug instead of info; everything else passes unchanged. */
function demoteBootChatter(this: PinoLogger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const first = args[0] as { context?: unknown } | undefined;
  if (level === INFO && typeof first === 'object' && first !== null && BOOT_CONTEXTS.has(String(first.context))) {
    if (this.isLevelEnabled('debug')) this.debug(...(args as [object, string]));
    return;
  }
  method.apply(this, args);
}
