import { getQueueToken } from '@nestjs/bull';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bull';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiTokenService, AuthFailureLimiter, actorHasRole } from '@app/auth';
import { QUEUE_NAMES } from '@app/queues';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Bull Board (jobs per queue, retry, remove) for operators. It is a Fastify plugin registered outside Nest, so
 * Nest's global auth guard never sees it: it has its own admin-only hook, scoped to the board's routes. A browser
 * cannot send a bearer header on navigation, so Basic auth (any user name, the admin token as password) is
 * accepted too, and the 401 asks for it. A failed login counts against the caller's address like one on any Nest
 * route (the same limiter and budget), so admin tokens cannot be guessed here without limit either.
 */
export async function mountQueueBoard(app: NestFastifyApplication): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  const queues = QUEUE_NAMES.map((name) => new BullAdapter(app.get<Queue>(getQueueToken(name), { strict: false })));
  createBullBoard({ queues, serverAdapter, options: { uiConfig: { boardTitle: 'charge-once queues' } } });
  const tokens = app.get(ApiTokenService);
  const failures = app.get(AuthFailureLimiter);
  // Not wrapped in fastify-plugin: the hook stays inside this scope, on the board's routes only.
  await app.register(async (scope: FastifyInstance) => {
    scope.addHook('onRequest', (req, reply) => adminOnly(tokens, failures, req, reply));
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
  });
}

async function adminOnly(tokens: ApiTokenService, failures: AuthFailureLimiter, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = tokenFrom(req.headers.authorization);
  const actor = token ? await tokens.authenticate(token) : null;
  if (!actor) {
    const over = await failures.recordFailure(req.ip);
    if (over !== null) {
      reply.header('Retry-After', String(Math.ceil(over / 1000)));
      return reply.code(429).send({ statusCode: 429, error: 'Too Many Requests', code: 'rate_limited', message: 'too many failed authentications from this address; retry later' });
    }
    return refuse(reply, 401, token ? 'unknown or revoked token' : 'the queue board needs an admin token (Bearer, or Basic with the token as password)');
  }
  if (!actorHasRole(actor, ['admin'])) return refuse(reply, 403, `the queue board needs role admin; token has ${actor.role}`);
}

function tokenFrom(header: string | undefined): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)\s*$/i.exec(header ?? '');
  if (!basic) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const password = decoded.slice(decoded.indexOf(':') + 1);
  return password || null;
}

async function refuse(reply: FastifyReply, statusCode: 401 | 403, message: string): Promise<void> {
  if (statusCode === 401) reply.header('WWW-Authenticate', 'Basic realm="charge-once queues", charset="UTF-8"');
  await reply.code(statusCode).send({ statusCode, error: statusCode === 401 ? 'Unauthorized' : 'Forbidden', code: statusCode === 401 ? 'unauthenticated' : 'forbidden_role', message });
}
