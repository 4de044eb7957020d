import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpException, HttpStatus } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '@app/config';
import { replyToClientError } from './client-error.reply.js';
import { decodeBody, refusedQueryParameter, unstorableStringAt } from './request-text.checks.js';

/**
 * The api's HTTP server: Fastify, with bounded bodies (provider events can outgrow the usual 100 kB, and a 413
 * would be retried by the provider for days) and the proxies allowed to name the client's address. A URL Fastify
 * cannot decode (`/charges/%zz`) is refused before any hook runs: that 400 gets the security headers and the one
 * error shape here, as every other refusal does.
 */
export function createApiHttpAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: config.MAX_BODY_BYTES,
    ...(config.TRUST_PROXY ? { trustProxy: trustProxyOf(config.TRUST_PROXY) } : {}),
    clientErrorHandler: replyToClientError,
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) =>
      void reply.headers(SECURITY_HEADERS).code(400).send({ statusCode: 400, error: 'Bad Request', code: 'bad_request', message: error.message }),
  });
}

/** TRUST_PROXY as Express read it: a hop count, or addresses and presets (`loopback`, `10.0.0.0/8`, comma separated). */
function trustProxyOf(setting: string): string | ((address: string, hop: number) => boolean) {
  if (!/^\d+$/.test(setting)) return setting;
  const hops = Number(setting);
  return (_address, hop) => hop < hops;
}

/**
 * The edge of the api: helmet's security headers (its default Content-Security-Policy suits the console, the docs
 * and the queue board, which load only their own scripts), and JSON bodies as clients already send them. Fastify
 * sends no x-powered-by.
 */
export async function hardenHttp(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const json = fastify.getDefaultJsonParser('error', 'error');
  // `POST /charges/:id/submit` with `Content-Type: application/json` and no body is how clients call it (and how
  // Express took it): an empty JSON body is `{}`, not Fastify's 400. Anything else is checked, then Fastify's own parser.
  app.useBodyParser<RawServerDefault>('application/json', {}, (req, body, done) => {
    if (body.length === 0) return done(null, {});
    // A provider's event is taken as the provider sent it (its signature covers those bytes); refusing one would
    // only make the provider retry a fact we must not lose.
    if (isProviderWebhook(req)) {
      void json(req, body.toString('utf8'), done);
      return;
    }
    const decoded = decodeBody(body);
    if ('problem' in decoded) return done(invalidBody(decoded.problem), undefined);
    void json(req, decoded.text, (error, parsed) => {
      if (error) return done(error, undefined);
      const at = unstorableStringAt(parsed);
      done(at ? invalidBody(`${at} holds a NUL character or ill-formed Unicode`, at) : null, parsed);
    });
  });
  // Every route takes JSON or nothing: a text/plain body is refused (415), not read as an empty object. Nest
  // registers a form parser at init unless one is given: given here, it refuses, so `amountCents=1&...` is a 415
  // too rather than strings handed to the validators.
  fastify.removeContentTypeParser('text/plain');
  app.useBodyParser<RawServerDefault>('application/x-www-form-urlencoded', {}, (_req, _body, done) =>
    done(new HttpException({ code: 'unsupported_media_type', message: 'this api takes application/json bodies' }, HttpStatus.UNSUPPORTED_MEDIA_TYPE), undefined),
  );
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    const parameter = refusedQueryParameter(request.url, request.query);
    if (!parameter) return done();
    void reply.code(400).send({ statusCode: 400, error: 'Bad Request', code: 'invalid_query', message: `${parameter}: a NUL character or ill-formed UTF-8`, details: { field: parameter } });
  });
}

/**
 * Helmet's headers, computed once: with no per-request nonces they are the same for every response, and
 * @fastify/helmet rebuilt helmet's middleware (parsing the CSP directives again) on every request, a tenth of the
 * hot path's CPU.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  let ran = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(`helmet refused its options: ${JSON.stringify(error)}`);
    ran = true;
  });
  // A helmet that answered later (or per request) would leave headers out silently: refuse to start instead.
  if (!ran) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

// The api is served over plain HTTP in development and behind a TLS proxy in production: upgrading subresource
// requests would break the former and do nothing for the latter.
const SECURITY_HEADERS = securityHeaders({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } });

/** 400 `invalid_body`, in the one error shape (Fastify hands a parser's error with a statusCode to the filters). */
function invalidBody(problem: string, field?: string): Error {
  return new HttpException({ code: 'invalid_body', message: problem, ...(field ? { details: { field } } : {}) }, HttpStatus.BAD_REQUEST);
}

function isProviderWebhook(request: { routeOptions?: { url?: string } }): boolean {
  return request.routeOptions?.url?.startsWith('/webhooks/') === true;
}
