import { type ArgumentsHost, Catch, HttpStatus, Logger } from '@nestjs/common';
import { BaseExceptionFilter, type HttpAdapterHost } from '@nestjs/core';
import { isDatabaseUnavailable } from '@app/database';

/** Seconds a client waits before asking again: a proxy re-pointed at a promoted standby answers within them. */
const RETRY_AFTER_SECONDS = 1;

/**
 * A request whose database went away under it (a restart, a failover, a proxy with no server yet) answers 503 with
 * Retry-After, never a 500 and never a hang: every write path is safe to repeat (submits reuse the open attempt,
 * creates and credits their Idempotency-Key), so the client's retry after the switch is the recovery. Anything else
 * goes on to Nest's own handling. Registered first, so the filters of specific errors take precedence over it.
 */
@Catch()
export class DatabaseUnavailableFilter extends BaseExceptionFilter {
  private readonly logger = new Logger(DatabaseUnavailableFilter.name);

  constructor(private readonly adapterHost: HttpAdapterHost) {
    super(adapterHost.httpAdapter);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (!isDatabaseUnavailable(exception)) return super.catch(exception, host);
    this.logger.warn({ err: exception }, 'database unavailable: answered 503');
    const response: unknown = host.switchToHttp().getResponse();
    this.adapterHost.httpAdapter.setHeader(response, 'Retry-After', String(RETRY_AFTER_SECONDS));
    this.adapterHost.httpAdapter.reply(
      response,
      { statusCode: 503, error: 'Service Unavailable', code: 'database_unavailable', message: 'the database is not answering; nothing was changed that a retry would repeat: retry', details: { retryAfterSeconds: RETRY_AFTER_SECONDS } },
      HttpStatus.SERVICE_UNAVAILABLE,
    );
  }
}
