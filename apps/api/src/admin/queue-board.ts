import { getQueueToken } from '@nestjs/bull';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bull';
import type { NextFunction, Request, Response } from 'express';
import { ApiTokenService, actorHasRole } from '@app/auth';
import { QUEUE_NAMES } from '@app/queues';

export const QUEUE_BOARD_PATH = '/admin/queues';

/**
 * Bull Board (jobs per queue, retry, remove) for operators. It is an Express router mounted outside Nest, so
 * Nest's global auth guard never sees it: it has its own admin-only guard. A browser cannot send a bearer
 * header on navigation, so Basic auth (any user name, the admin token as password) is accepted too, and the
 * 401 asks for it.
 */
export function mountQueueBoard(app: NestExpressApplication): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  const queues = QUEUE_NAMES.map((name) => new BullAdapter(app.get<Queue>(getQueueToken(name), { strict: false })));
  createBullBoard({ queues, serverAdapter, options: { uiConfig: { boardTitle: 'charge-once queues' } } });
  app.use(QUEUE_BOARD_PATH, adminOnly(app.get(ApiTokenService)), serverAdapter.getRouter());
}

function adminOnly(tokens: ApiTokenService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = tokenFrom(req.headers.authorization);
    if (!token) return refuse(res, 401, 'the queue board needs an admin token (Bearer, or Basic with the token as password)');
    tokens.authenticate(token).then(
      (actor) => {
        if (!actor) return refuse(res, 401, 'unknown or revoked token');
        if (!actorHasRole(actor, ['admin'])) return refuse(res, 403, `the queue board needs role admin; token has ${actor.role}`);
        next();
      },
      (error: unknown) => next(error),
    );
  };
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

function refuse(res: Response, statusCode: 401 | 403, message: string): void {
  if (statusCode === 401) res.setHeader('WWW-Authenticate', 'Basic realm="charge-once queues", charset="UTF-8"');
  res.status(statusCode).json({ statusCode, error: statusCode === 401 ? 'Unauthorized' : 'Forbidden', message });
}
