import type { FastifyReply } from 'fastify';
import type { ChargeView } from '@app/charges';

/** What a checkout waits for: the charge left `created` / `processing` (succeeded, failed, in review, ...). */
export const isSettledForCheckout = (view: ChargeView): boolean => view.status !== 'created' && view.status !== 'processing';

/** Aborted when the client goes away before its answer, so its waiter is given back at once. */
export function clientGone(res: FastifyReply): AbortSignal {
  const gone = new AbortController();
  res.raw.once('close', () => {
    if (!res.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}
