import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';

/**
 * The stable `code` of a refusal the framework makes before any of our services runs (validation, a missing
 * token, a role, a body too large, a budget spent), so clients branch on `code` for every error, not only on
 * domain errors. Anything not listed answers `http_<status>`.
 */
const CODE_BY_STATUS: Partial<Record<HttpStatus, string>> = {
  [HttpStatus.BAD_REQUEST]: 'bad_request',
  [HttpStatus.UNAUTHORIZED]: 'unauthenticated',
  [HttpStatus.FORBIDDEN]: 'forbidden_role',
  [HttpStatus.NOT_FOUND]: 'route_not_found',
  [HttpStatus.METHOD_NOT_ALLOWED]: 'method_not_allowed',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'body_too_large',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'unsupported_media_type',
  [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limited',
  [HttpStatus.INTERNAL_SERVER_ERROR]: 'internal_error',
};

/** Framework errors (HttpException) in the one error shape: `{ statusCode, error, code, message, details? }`. */
@Catch(HttpException)
export class HttpErrorFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: HttpException, host: ArgumentsHost): void {
    const status = exception.getStatus();
    const given = exception.getResponse();
    const body = typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : { message: given };
    // The ValidationPipe lists every failed field; that list is the message clients already read, and the code says so.
    const validation = status === Number(HttpStatus.BAD_REQUEST) && Array.isArray(body.message);
    const code = typeof body.code === 'string' ? body.code : validation ? 'validation_failed' : (CODE_BY_STATUS[status as HttpStatus] ?? `http_${status}`);
    this.adapterHost.httpAdapter.reply(
      host.switchToHttp().getResponse(),
      {
        statusCode: status,
        error: typeof body.error === 'string' ? body.error : (HttpStatus[status] ?? 'Error').replace(/_/g, ' ').toLowerCase().replace(/^\w|\s\w/g, (c) => c.toUpperCase()),
        code,
        message: body.message ?? exception.message,
        ...(body.details ? { details: body.details } : {}),
      },
      status,
    );
  }
}
