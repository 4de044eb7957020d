import { applyDecorators } from '@nestjs/common';
import { ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorResponse } from './error-response.js';

type ErrorStatus = 400 | 403 | 404 | 409 | 422 | 429 | 503;

const ERROR_NAMES: Record<ErrorStatus, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/**
 * Documents the domain errors a route can answer, each status with the codes it carries (the domain error
 * filter sends `code`). 401/403 for a missing or wrong-role token are added to every secured route by the
 * document builder, so routes list only what their own rules refuse.
 */
export function ApiErrors(errors: Partial<Record<ErrorStatus, string | string[]>>): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...Object.entries(errors).map(([status, codes]) => {
      const list = [codes ?? []].flat();
      const statusCode = Number(status) as ErrorStatus;
      return ApiResponse({
        status: statusCode,
        description: list.length ? `code: ${list.join(', ')}` : ERROR_NAMES[statusCode],
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(ErrorResponse) },
            example: { statusCode, error: ERROR_NAMES[statusCode], message: '…', ...(list[0] ? { code: list[0] } : {}) },
          },
        },
      });
    }),
  );
}
