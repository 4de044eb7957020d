import { Module } from '@nestjs/common';
import { LoggerModule as PinoLoggerModule } from 'nestjs-pino';
import { AppConfig } from '@app/config';

/**
 * Structured JSON logs (pino): cheap enough for the hot path, and the redaction list keeps tokens,
 * signatures and provider keys out of every line.
 */
@Module({
  imports: [
    PinoLoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
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
