import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { DomainError, type DomainErrorKind } from '@app/common';

/** Kinds of refusal → HTTP. Each module says which kind its errors are; only this edge knows HTTP. */
const STATUS_BY_KIND: Record<DomainErrorKind, HttpStatus> = {
  invalid_input: HttpStatus.BAD_REQUEST,
  forbidden: HttpStatus.FORBIDDEN,
  not_found: HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  unprocessable: HttpStatus.UNPROCESSABLE_ENTITY,
  // This process holds as much of a bounded resource as it may: come back (Retry-After), nothing was done.
  overloaded: HttpStatus.TOO_MANY_REQUESTS,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
  internal: HttpStatus.INTERNAL_SERVER_ERROR,
};

@Catch(DomainError)
export class DomainErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(DomainErrorFilter.name);

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: DomainError, host: ArgumentsHost): void {
    const mapped = STATUS_BY_KIND[error.kind] as HttpStatus | undefined;
    const status = mapped ?? HttpStatus.INTERNAL_SERVER_ERROR;
    // A kind this table does not know is a bug in the code that threw it, never a client's mistake.
    if (mapped === undefined || status === HttpStatus.INTERNAL_SERVER_ERROR) this.logger.error({ code: error.code, kind: error.kind, err: error }, 'domain error answered 500');
    const response: unknown = host.switchToHttp().getResponse();
    const retryAfter = error.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number') this.adapterHost.httpAdapter.setHeader(response, 'Retry-After', String(retryAfter));
    this.adapterHost.httpAdapter.reply(
      response,
      {
        statusCode: status,
        error: HttpStatus[status].replace(/_/g, ' ').toLowerCase().replace(/^\w|\s\w/g, (c) => c.toUpperCase()),
        code: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      },
      status,
    );
  }
}
