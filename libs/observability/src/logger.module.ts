import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule as PinoLoggerModule } from 'nestjs-pino';
import { AppConfig } from '@app/config';

/** Levels at which every request still gets its own access-log line. */
const REQUEST_LOG_LEVELS = new Set(['debug', 'trace']);

/**
 * Structured JSON logs (pino); the redaction list keeps tokens, signatures and provider keys out of every line.
 * Below debug, the hot routes (create and submit a charge) skip the request logger entirely: serialising each
 * request cost more than the database work behind it. Their record is the sender's one line per attempt
 * outcome (`provider call classified`, with charge, attempt, key and provider ids); errors are still logged.
 */
@Module({
  imports: [
    PinoLoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        exclude: REQUEST_LOG_LEVELS.has(config.LOG_LEVEL)
          ? []
          : [
              { method: RequestMethod.POST, path: 'charges' },
              { method: RequestMethod.POST, path: 'charges/:id/submit' },
            ],
        pinoHttp: {
          level: config.LOG_LEVEL,
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
          autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
        },
      }),
    }),
  ],
})
export class LoggerModule {}
