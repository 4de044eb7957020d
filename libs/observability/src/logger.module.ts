import { Injectable, Module, RequestMethod, type OnApplicationShutdown } from '@nestjs/common';
import { LoggerModule as PinoLoggerModule } from 'nestjs-pino';
import type { LogFn, Logger as PinoLogger } from 'pino';
import { AppConfig } from '@app/config';
import { activeTraceFields } from './tracing/spans.js';
import { stopTracing } from './tracing/start-tracing.js';

/** Both processes load this module, so the spans still batched at shutdown are exported here, not dropped. */
@Injectable()
class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}

/** Levels at which every request still gets its own access-log line. */
const REQUEST_LOG_LEVELS = new Set(['debug', 'trace']);

/** Nest's boot narration (every module loaded, every route mapped): useful when debugging, noise at info. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);
const INFO = 30;

/**
 * Structured JSON logs (pino); the redaction list keeps tokens, signatures and provider keys out of every line,
 * and LOG_FORMAT=pretty renders them for a person instead. Below debug, the hot routes (create and submit a
 * charge) skip the request logger entirely: serialising each request cost more than the database work behind
 * it. Their record is the sender's one line per attempt outcome (`provider call classified`, with charge,
 * attempt, key and provider ids); errors are still logged.
 */
@Module({
  imports: [
    PinoLoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // Every route. nestjs-pino's own default (`{/*splat}`) matches no request under Nest's Fastify adapter.
        forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
        exclude: REQUEST_LOG_LEVELS.has(config.LOG_LEVEL)
          ? []
          : [
              { method: RequestMethod.POST, path: 'charges' },
              { method: RequestMethod.POST, path: 'charges/:id/submit' },
            ],
        pinoHttp: {
          level: config.LOG_LEVEL,
          ...(config.LOG_FORMAT === 'pretty'
            ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
            : {}),
          hooks: { logMethod: demoteBootChatter },
          // A line logged inside a span names its trace, so a log line leads to the trace (only when tracing is on).
          ...(config.OTEL_EXPORTER_OTLP_ENDPOINT ? { mixin: activeTraceFields } : {}),
          // A webhook URL may carry a secret (Efí's hmac): its query never reaches a log line.
          serializers: { req: withoutWebhookQuery },
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
          // originalUrl: inside a Fastify middleware `url` is the part after the middleware's own path.
          autoLogging: { ignore: (req) => ['/health', '/metrics'].includes((req as { originalUrl?: string }).originalUrl ?? req.url ?? '') },
        },
      }),
    }),
  ],
  providers: [TracingShutdown],
})
export class LoggerModule {}

/** A serialized request with the query string of webhook routes cut off its url and dropped from its fields. */
export function withoutWebhookQuery<R extends { url?: string; query?: unknown }>(req: R): R {
  if (typeof req.url !== 'string' || !req.url.startsWith('/webhooks/')) return req;
  const cut = req.url.indexOf('?');
  return { ...req, url: cut === -1 ? req.url : `${req.url.slice(0, cut)}?[redacted]`, query: undefined };
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
