import type { ServerResponse } from 'node:http';
import type { CreatedRange } from './payment-intents.store.js';
import type { StripeEngine } from './stripe-engine.js';
import { UnsupportedSearchQuery, parseSearchQuery } from './search-query.js';
import { stripeErrors } from './stripe-errors.js';
import type { StripeErrorBody } from './stripe-errors.js';

export type QueryReply = (status: number, body: unknown) => void;

const DEFAULT_LIMIT = 10;

/** Applies a query fault if one is planned. Returns true when the request has been dealt with. */
export function applyQueryFault(engine: StripeEngine, response: ServerResponse, reply: QueryReply): boolean {
  const fault = engine.faults.takeQueryFault();
  if (!fault) return false;
  engine.stats.countFault(`query_${fault}`);
  if (fault === 'hang') engine.hangs.hold(response, engine.config.hangMs);
  else if (fault === '429') reply(429, stripeErrors.rateLimited());
  else if (fault === 'malformed_200') reply(200, {});
  else reply(500, stripeErrors.apiError());
  return true;
}

export function retrieveIntent(engine: StripeEngine, id: string, reply: QueryReply): void {
  const intent = engine.intentStore.get(id);
  if (intent) reply(200, intent);
  else reply(404, stripeErrors.resourceMissing(id));
}

/** `GET /v1/payment_intents`: strongly consistent, newest first, never lagged. */
export function listIntents(engine: StripeEngine, query: URLSearchParams, reply: QueryReply): void {
  const limit = readLimit(query);
  if (typeof limit !== 'number') return reply(400, limit);
  const created = readCreatedRange(query);
  if ('error' in created) return reply(400, created);
  const startingAfter = query.get('starting_after') ?? undefined;
  if (startingAfter && !engine.intentStore.get(startingAfter)) return reply(400, stripeErrors.resourceMissing(startingAfter));
  const customer = query.get('customer') ?? undefined;
  const page = engine.intentStore.list({ customer, created, limit, startingAfter });
  reply(200, { object: 'list', data: page.data, has_more: page.hasMore, url: '/v1/payment_intents' });
}

/** `GET /v1/payment_intents/search`: sees only intents older than the configured search lag. */
export function searchIntents(engine: StripeEngine, query: URLSearchParams, reply: QueryReply): void {
  const limit = readLimit(query);
  if (typeof limit !== 'number') return reply(400, limit);
  const text = query.get('query');
  if (!text) return reply(400, stripeErrors.missingParam('query'));
  const offset = readPageToken(query.get('page'));
  if (offset === null) return reply(400, stripeErrors.invalidParam('page', 'Invalid page token.'));
  let matches;
  try {
    matches = parseSearchQuery(text);
  } catch (error) {
    if (!(error instanceof UnsupportedSearchQuery)) throw error;
    return reply(400, stripeErrors.invalidParam('query', error.message));
  }
  const page = engine.intentStore.search(matches, engine.config.searchLagMs, Date.now(), offset, limit);
  reply(200, {
    object: 'search_result',
    data: page.data,
    has_more: page.hasMore,
    next_page: page.hasMore ? `page_${offset + limit}` : null,
    url: '/v1/payment_intents/search',
  });
}

function readLimit(query: URLSearchParams): number | StripeErrorBody {
  const raw = query.get('limit');
  if (raw === null) return DEFAULT_LIMIT;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return stripeErrors.invalidParam('limit', 'This value must be between 1 and 100.');
  }
  return limit;
}

function readCreatedRange(query: URLSearchParams): CreatedRange | StripeErrorBody {
  const range: CreatedRange = {};
  const exact = query.get('created');
  if (exact !== null) range.gte = range.lte = Number(exact);
  for (const bound of ['gt', 'gte', 'lt', 'lte'] as const) {
    const raw = query.get(`created[${bound}]`);
    if (raw !== null) range[bound] = Number(raw);
  }
  const invalid = Object.values(range).some((value) => !Number.isInteger(value));
  return invalid ? stripeErrors.invalidParam('created', 'Invalid timestamp.') : range;
}

/** Search pages are opaque tokens at Stripe; here `page_<offset>`. */
function readPageToken(token: string | null): number | null {
  if (token === null) return 0;
  const match = /^page_(\d+)$/.exec(token);
  return match ? Number(match[1]) : null;
}

export function retrieveRefund(engine: StripeEngine, id: string, reply: QueryReply): void {
  const refund = engine.refundStore.get(id);
  if (refund) reply(200, refund);
  else reply(404, stripeErrors.invalidParam('id', `No such refund: '${id}'`));
}

/** `GET /v1/refunds?payment_intent=`: strongly consistent, newest first, never lagged. */
export function listRefunds(engine: StripeEngine, query: URLSearchParams, reply: QueryReply): void {
  const limit = readLimit(query);
  if (typeof limit !== 'number') return reply(400, limit);
  const startingAfter = query.get('starting_after') ?? undefined;
  if (startingAfter && !engine.refundStore.get(startingAfter)) return reply(400, stripeErrors.invalidParam('starting_after', `No such refund: '${startingAfter}'`));
  const page = engine.refundStore.listByIntent(query.get('payment_intent') ?? undefined, limit, startingAfter);
  reply(200, { object: 'list', data: page.data, has_more: page.hasMore, url: '/v1/refunds' });
}
