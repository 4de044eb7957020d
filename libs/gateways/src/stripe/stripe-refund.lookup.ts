import { performance } from 'node:perf_hooks';
import { lookupError, lookupResult, type LookupResult, type ProviderCharge } from '../provider-lookup.result.js';
import type { RefundReference } from '../refund-gateway.port.js';
import { listItems } from './stripe-lookup.results.js';
import type { PageOutcome } from './stripe-lookup.results.js';
import { matchingRefunds, readRefund, refundAsProviderRecord } from './stripe-refund.response.js';

type GetPage = (path: string, params: Record<string, string>) => Promise<PageOutcome>;

const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/**
 * Finds a refund attempt at Stripe. A known refund id is retrieved; otherwise the refunds of the payment
 * intent are listed (a list endpoint: strongly consistent, not subject to search lag) and matched on
 * `metadata[refund_attempt_id]`. Every match is kept: two refunds for one attempt is money to look at.
 */
export async function findStripeRefund(getPage: GetPage, reference: RefundReference): Promise<LookupResult> {
  const startedAt = performance.now();
  if (reference.providerRefundId) {
    const outcome = await getPage(`/v1/refunds/${encodeURIComponent(reference.providerRefundId)}`, {});
    if (!outcome.ok) return lookupError(outcome, startedAt);
    const refund = readRefund(outcome.body);
    if (!refund) return lookupError({ message: 'retrieve returned no refund', httpStatus: 200 }, startedAt);
    if (refund.metadata.refund_attempt_id !== reference.attemptId) {
      return lookupError({ message: `refund ${refund.id} belongs to attempt ${String(refund.metadata.refund_attempt_id)}`, httpStatus: 200 }, startedAt);
    }
    return lookupResult([refundAsProviderRecord(refund, outcome.body)], true, startedAt);
  }
  const base = { payment_intent: reference.providerChargeId, limit: String(PAGE_SIZE) };
  const found: ProviderCharge[] = [];
  let startingAfter: string | null = null;
  for (let count = 0; count < MAX_PAGES; count += 1) {
    const outcome = await getPage('/v1/refunds', startingAfter ? { ...base, starting_after: startingAfter } : base);
    if (!outcome.ok) return lookupError(outcome, startedAt);
    const data = listItems(outcome.body);
    if (!data) return lookupError({ message: 'refund list answered 2xx without a list: it proves nothing', httpStatus: 200 }, startedAt);
    found.push(...matchingRefunds(data, reference.attemptId));
    startingAfter = readRefund(data.at(-1))?.id ?? null;
    if (outcome.body.has_more !== true) return lookupResult(found, true, startedAt);
    // A list that has more but whose last item cannot be read was not read to the end: it proves no absence.
    if (!startingAfter) return lookupError({ message: 'list says it has more refunds but its last item has no id', httpStatus: 200 }, startedAt);
  }
  if (found.length > 0) return lookupResult(found, true, startedAt);
  return lookupError({ message: `more than ${MAX_PAGES * PAGE_SIZE} refunds on the payment intent; the list was not read to the end`, httpStatus: null }, startedAt);
}
