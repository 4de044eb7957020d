import type { ServerResponse } from 'node:http';
import type { CreateFault } from './fault-plan.js';
import type { HangTracker } from './hang-tracker.js';

export type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;

/**
 * A gate fault: the request never reaches execution. Every imitated provider fails it the same way, each in its
 * own error bodies: the connection reset, held open, or refused as rate limited or as a request still in flight.
 */
export function applyGateFault(
  fault: CreateFault,
  hold: { hangs: HangTracker; hangMs: number },
  response: ServerResponse,
  reply: Reply,
  errors: { rateLimited: unknown; inProgress: unknown },
): void {
  switch (fault) {
    case 'reset_before_read':
    case 'close_kept_alive':
      response.socket?.destroy();
      return;
    case 'hang_before_create':
      return hold.hangs.hold(response, hold.hangMs);
    case '429':
      return reply(429, errors.rateLimited);
    case '409':
      return reply(409, errors.inProgress);
    default:
      throw new Error(`${fault} is not a gate fault`);
  }
}
