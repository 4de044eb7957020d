import type { IncomingMessage, ServerResponse } from 'node:http';
import { asaasError } from './asaas-create-params.js';
import { createAsaasPaymentRoute } from './asaas-create-route.js';
import { deleteAsaasPaymentRoute, refundAsaasPaymentRoute } from './asaas-payment-actions.route.js';
import type { AsaasEngine } from './asaas-engine.js';
import { ASAAS_SIM_STATUSES, type AsaasPaymentStatus } from './asaas-payment.js';
import { listAsaasFinancialTransactions } from './asaas-financial-transactions.route.js';
import { requestUrl, sendJson } from '../http-io.js';

const PAYMENT_PATH = /^\/v3\/payments\/([^/]+)$/;
const REFUND_PATH = /^\/v3\/payments\/([^/]+)\/refund$/;
const DEFAULT_LIMIT = 10;

/** The Asaas-imitating API under `/v3/` (provider-contracts.md §3). Any error inside becomes a 500. */
export function routeAsaas(engine: AsaasEngine, request: IncomingMessage, response: ServerResponse): void {
  route(engine, request, response).catch(() => {
    if (!response.headersSent) sendJson(response, 500, asaasError('internal_error', 'Erro interno.'));
    else response.destroy();
  });
}

async function route(engine: AsaasEngine, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = requestUrl(request);
  const method = request.method ?? 'GET';
  const reply = (status: number, body: unknown) => sendJson(response, status, body);
  // Asaas answers 401 to a missing or invalid key; any non-empty key is valid here.
  const token = request.headers.access_token;
  if (typeof token !== 'string' || token === '') {
    engine.stats.countAsaasRequest('unauthorized');
    return reply(401, asaasError('invalid_access_token', 'A chave de API fornecida é inválida'));
  }
  if (method === 'POST' && url.pathname === '/v3/payments') return createAsaasPaymentRoute(engine, request, response);
  const refundOf = REFUND_PATH.exec(url.pathname)?.[1];
  if (method === 'POST' && refundOf) return refundAsaasPaymentRoute(engine, decodeURIComponent(refundOf), request, response);
  const paymentId = PAYMENT_PATH.exec(url.pathname)?.[1];
  if (method === 'DELETE' && paymentId) return deleteAsaasPaymentRoute(engine, decodeURIComponent(paymentId), response);
  if (method !== 'GET') return reply(404, asaasError('not_found', `${method} ${url.pathname} não existe`));

  if (url.pathname === '/v3/financialTransactions') {
    const { status, body } = listAsaasFinancialTransactions(engine, url.searchParams);
    reply(status, body);
  } else if (url.pathname === '/v3/payments') {
    engine.stats.countAsaasRequest('lists');
    if (!applyQueryFault(engine, response, reply)) listPayments(engine, url.searchParams, reply);
  } else if (paymentId) {
    engine.stats.countAsaasRequest('retrieves');
    if (applyQueryFault(engine, response, reply)) return;
    const payment = engine.paymentStore.get(decodeURIComponent(paymentId));
    if (payment) reply(200, engine.current(payment));
    else reply(404, asaasError('not_found', 'Cobrança não encontrada.'));
  } else {
    reply(404, asaasError('not_found', `${method} ${url.pathname} não existe`));
  }
}

/** The same lookup faults as Stripe's queries: one plan drives both providers. */
function applyQueryFault(engine: AsaasEngine, response: ServerResponse, reply: (status: number, body: unknown) => void): boolean {
  const fault = engine.faults.takeQueryFault();
  if (!fault) return false;
  engine.stats.countFault(`query_${fault}`);
  if (fault === 'hang') engine.hangs.hold(response, engine.settings.hangMs);
  else if (fault === '429') reply(429, asaasError('rate_limit_exceeded', 'Limite de requisições atingido.'));
  else if (fault === 'malformed_200') reply(200, {});
  else reply(500, asaasError('internal_error', 'Erro interno.'));
  return true;
}

/** `GET /v3/payments?externalReference=&customer=&billingType=&status=&paymentDate[ge]=&paymentDate[le]=&dateCreated[ge]=&dateCreated[le]=&offset=&limit=`: lags behind creates by `asaasListLagMs`. */
function listPayments(engine: AsaasEngine, query: URLSearchParams, reply: (status: number, body: unknown) => void): void {
  const limit = query.get('limit') === null ? DEFAULT_LIMIT : Number(query.get('limit'));
  const offset = query.get('offset') === null ? 0 : Number(query.get('offset'));
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return reply(400, asaasError('invalid_limit', 'O limite deve estar entre 1 e 100.'));
  if (!Number.isInteger(offset) || offset < 0) return reply(400, asaasError('invalid_offset', 'Offset inválido.'));
  const date = (name: string) => {
    const value = query.get(name);
    return value === null ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
  };
  const [paymentDateGe, paymentDateLe] = [date('paymentDate[ge]'), date('paymentDate[le]')];
  if (paymentDateGe === null || paymentDateLe === null) return reply(400, asaasError('invalid_paymentDate', 'Data de pagamento inválida.'));
  const [dateCreatedGe, dateCreatedLe] = [date('dateCreated[ge]'), date('dateCreated[le]')];
  if (dateCreatedGe === null || dateCreatedLe === null) return reply(400, asaasError('invalid_dateCreated', 'Data de criação inválida.'));
  const status = query.get('status') ?? undefined;
  if (status !== undefined && !ASAAS_SIM_STATUSES.includes(status as AsaasPaymentStatus)) return reply(400, asaasError('invalid_status', 'Situação inválida.'));
  const filter = { externalReference: query.get('externalReference') ?? undefined, customer: query.get('customer') ?? undefined, billingType: query.get('billingType') ?? undefined, status, paymentDateGe, paymentDateLe, dateCreatedGe, dateCreatedLe };
  // Only a statement read (by a date range) meets statement faults; a lookup by reference never does.
  const fault = paymentDateGe || paymentDateLe || dateCreatedGe || dateCreatedLe ? engine.faults.takeStatementFault(offset > 0 ? ['list_moved', 'total_mismatch'] : ['total_mismatch']) : null;
  if (fault) engine.stats.countFault(`statement_${fault}`);
  // list_moved: a payment before this page left the list while it was paged, so everything after it moved up one.
  const shift = fault === 'list_moved' ? 1 : 0;
  const page = engine.paymentStore.list(filter, engine.settings.asaasListLagMs, Date.now(), offset + shift, limit);
  const totalCount = page.totalCount - shift + (fault === 'total_mismatch' ? 1 : 0);
  reply(200, { object: 'list', hasMore: page.hasMore, totalCount, limit, offset, data: page.data.map((p) => engine.current(p)) });
}
