import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestUrl, sendJson } from '../http-io.js';
import { newStripeId } from '../ids.js';
import type { StripeEngine } from './stripe-engine.js';
import { createPaymentIntentRoute } from './stripe-create-route.js';
import { stripeErrors } from './stripe-errors.js';
import { applyQueryFault, listIntents, listRefunds, retrieveIntent, retrieveRefund, searchIntents } from './stripe-query-routes.js';
import { createRefundRoute } from './stripe-refund-route.js';
import type { QueryReply } from './stripe-query-routes.js';
import { createReportRun, listBalanceTransactions, retrieveReportRun, retrieveReportType, streamReportFile } from './stripe-balance-routes.js';

const INTENT_PATH = /^\/v1\/payment_intents\/([^/]+)$/;
const REFUND_PATH = /^\/v1\/refunds\/([^/]+)$/;
const REPORT_RUN_PATH = /^\/v1\/reporting\/report_runs\/([^/]+)$/;
const REPORT_TYPE_PATH = /^\/v1\/reporting\/report_types\/([^/]+)$/;
const FILE_CONTENTS_PATH = /^\/v1\/files\/([^/]+)\/contents$/;

/** The Stripe-imitating API under /v1. */
export async function routeStripe(engine: StripeEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = requestUrl(request);
  const method = request.method ?? 'GET';
  // Stripe accepts any well-formed key in test mode; the simulator only insists that one was sent.
  if (!/^Bearer \S+/.test(request.headers.authorization ?? '')) {
    engine.stats.countRequest('unauthorized');
    return sendJson(response, 401, stripeErrors.authentication());
  }
  if (method === 'POST' && url.pathname === '/v1/payment_intents') {
    return createPaymentIntentRoute(engine, request, response);
  }
  if (method === 'POST' && url.pathname === '/v1/refunds') return createRefundRoute(engine, request, response);
  const reply: QueryReply = (status, body) => sendJson(response, status, body, { 'Request-Id': newStripeId('req') });
  if (method === 'POST' && url.pathname === '/v1/reporting/report_runs') {
    engine.stats.countRequest('reportRuns');
    return createReportRun(engine, request, reply);
  }
  if (method !== 'GET') return sendJson(response, 404, stripeErrors.unknownRoute(method, url.pathname));
  const reportRunId = REPORT_RUN_PATH.exec(url.pathname)?.[1];
  const reportTypeId = REPORT_TYPE_PATH.exec(url.pathname)?.[1];
  const fileId = FILE_CONTENTS_PATH.exec(url.pathname)?.[1];
  const intentId = INTENT_PATH.exec(url.pathname)?.[1];
  // Counted on arrival, answered after the latency: a test can act while a query is in flight.
  const latency = () => (engine.config.queryLatencyMs > 0 ? sleep(engine.config.queryLatencyMs) : Promise.resolve());
  const refundId = REFUND_PATH.exec(url.pathname)?.[1];
  if (url.pathname === '/v1/payment_intents/search') {
    engine.stats.countRequest('searches');
    await latency();
    if (!applyQueryFault(engine, response, reply)) searchIntents(engine, url.searchParams, reply);
  } else if (url.pathname === '/v1/payment_intents') {
    engine.stats.countRequest('lists');
    await latency();
    if (!applyQueryFault(engine, response, reply)) listIntents(engine, url.searchParams, reply);
  } else if (url.pathname === '/v1/refunds') {
    engine.stats.countRequest('refundLists');
    if (!applyQueryFault(engine, response, reply)) listRefunds(engine, url.searchParams, reply);
  } else if (refundId) {
    engine.stats.countRequest('refundRetrieves');
    if (!applyQueryFault(engine, response, reply)) retrieveRefund(engine, decodeURIComponent(refundId), reply);
  } else if (url.pathname === '/v1/balance_transactions') {
    engine.stats.countRequest('balanceTransactions');
    if (!applyQueryFault(engine, response, reply)) listBalanceTransactions(engine, url.searchParams, reply);
  } else if (reportRunId) {
    engine.stats.countRequest('reportRuns');
    retrieveReportRun(engine, request, decodeURIComponent(reportRunId), reply);
  } else if (reportTypeId) {
    engine.stats.countRequest('reportTypes');
    retrieveReportType(engine, decodeURIComponent(reportTypeId), reply);
  } else if (fileId) {
    engine.stats.countRequest('reportFiles');
    if (!applyQueryFault(engine, response, reply)) await streamReportFile(engine, decodeURIComponent(fileId), response, reply);
  } else if (intentId) {
    engine.stats.countRequest('retrieves');
    await latency();
    if (!applyQueryFault(engine, response, reply)) retrieveIntent(engine, decodeURIComponent(intentId), reply);
  } else {
    sendJson(response, 404, stripeErrors.unknownRoute(method, url.pathname));
  }
}
