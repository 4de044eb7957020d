import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** Levels at which every request still gets its own access-log line. */
const REQUEST_LOG_LEVELS = new Set(['debug', 'trace']);
/** Polled by probes and scrapers, by route pattern: a line each would drown the rest. */
const UNLOGGED_ROUTES = new Set(['/health', '/metrics']);
/** The hot routes, by method and route pattern. */
const HOT_ROUTES = new Set(['POST /charges', 'POST /charges/:id/submit']);

/**
 * One line per finished request (`request completed`, at error for a 5xx), written from Fastify's onResponse hook
 * through `logger`, the application's root logger (nestjs-pino's `PinoLogger.root`), so its serializers and
 * redaction apply.
 *
 * Below debug, the hot routes (create and submit a charge) get no line: serialising each request cost more than
 * the database work behind it. Their record is the sender's one line per attempt outcome (`provider call
 * classified`, with charge, attempt, key and provider ids); errors are still logged.
 *
 * pino-http did this as Nest middleware before. Mounting it brought in Express-style middleware on every request
 * and an AsyncLocalStorage whose promise hook then ran for every promise in the process, hot routes included:
 * together about a tenth of the api's allocations per charge. Log lines written inside a request no longer carry
 * the request; with tracing on, they carry its trace id.
 */
export function logRequests(http: FastifyInstance, logger: Logger): void {
  const everyRoute = REQUEST_LOG_LEVELS.has(logger.level);
  http.addHook('onResponse', (request, reply, done) => {
    // Told by the route that matched, as the rate limits are: another spelling of a URL is the same route.
    const route = request.routeOptions.url ?? '';
    if (UNLOGGED_ROUTES.has(route) || (!everyRoute && reply.statusCode < 500 && HOT_ROUTES.has(`${request.method} ${route}`))) return done();
    // The request and response themselves: the logger's serializers (pino-http's, as before) pick their fields.
    const line = { req: request, res: reply.raw, responseTime: Math.round(reply.elapsedTime) };
    if (reply.statusCode >= 500) logger.error(line, 'request errored');
    else logger.info(line, 'request completed');
    done();
  });
}
