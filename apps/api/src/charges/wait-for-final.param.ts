import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { WAIT_FOR_FINAL_MAX_MS } from '@app/events';

/**
 * `waitForFinal` as sent: whole milliseconds, 0 to 30000; absent or empty reads at once. A decorator of its own
 * rather than `@Query` + a pipe, because the global ValidationPipe would first turn `1e3` or `1.0` into a number.
 */
export const WaitForFinal = createParamDecorator((_: unknown, context: ExecutionContext): number => {
  const value = context.switchToHttp().getRequest<FastifyRequest<{ Querystring: Record<string, unknown> }>>().query.waitForFinal;
  if (value === undefined || value === '') return 0;
  const ms = typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(ms <= WAIT_FOR_FINAL_MAX_MS)) throw new BadRequestException(`waitForFinal must be a whole number of milliseconds from 0 to ${WAIT_FOR_FINAL_MAX_MS}`);
  return ms;
});
