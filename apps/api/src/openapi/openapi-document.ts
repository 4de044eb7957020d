import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorResponse } from './error-response.js';

/** The one OpenAPI document: served at /docs and checked route by route by a test. */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  return withAuthErrors(SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('charge-once')
      .setDescription(
        'Charges that happen exactly once, payouts that never go out twice. Every route but webhooks, health, metrics and docs ' +
          'needs `Authorization: Bearer <token>`; a token carries one role (merchant, reviewer, admin), and an admin may call every route. ' +
          'Errors are `{ statusCode, error, message, code?, details? }`; `code` names the domain rule that refused.',
      )
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'an API token: `npm run token:create`, or API_TOKENS at boot' }, 'bearer')
      .build(),
    { extraModels: [ErrorResponse] },
  ));
}

const AUTH_ERRORS = {
  401: { description: 'missing, unknown or revoked bearer token', example: { statusCode: 401, error: 'Unauthorized', message: 'missing bearer token in the Authorization header' } },
  403: { description: "the token's role may not call this route", example: { statusCode: 403, error: 'Forbidden', message: 'this endpoint needs role merchant; token has reviewer' } },
  429: { description: "the token's rate limit (API_RATE_LIMIT per window) is spent; Retry-After says when to come back", example: { statusCode: 429, message: 'ThrottlerException: Too Many Requests' } },
} as const;

/** Every route behind the bearer guard answers 401, 403 and 429 the same way; said once here rather than on each route. */
function withAuthErrors(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const op of [item.get, item.post, item.put, item.patch, item.delete]) {
      if (!op?.security?.some((scheme) => 'bearer' in scheme)) continue;
      for (const [status, { description, example }] of Object.entries(AUTH_ERRORS)) {
        op.responses[status] ??= { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, example } } };
      }
    }
  }
  return document;
}
