import type { IncomingMessage, ServerResponse } from 'node:http';
import { reportCsvRowWriter, balanceTransactionJson, csvField } from './balance-json.js';
import type { BalanceRange } from './balance-transactions.store.js';
import { formString, parseFormBody } from './form-body.js';
import { headerValue, readBody } from '../http-io.js';
import type { StripeEngine } from './stripe-engine.js';
import { stripeErrors } from './stripe-errors.js';
import type { QueryReply } from './stripe-query-routes.js';

const DEFAULT_LIMIT = 10;
const SUPPORTED_REPORT = 'balance_change_from_activity.itemized.3';
const DEFAULT_COLUMNS = ['balance_transaction_id', 'created_utc', 'currency', 'gross', 'fee', 'net', 'reporting_category', 'source_id', 'charge_id', 'payment_intent_id'];

/** `GET /v1/balance_transactions`: newest first, `created[gte|lt]`, `starting_after`, `expand[]=data.source`. */
export function listBalanceTransactions(engine: StripeEngine, query: URLSearchParams, reply: QueryReply): void {
  const limit = Number(query.get('limit') ?? DEFAULT_LIMIT);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return reply(400, stripeErrors.invalidParam('limit', 'This value must be between 1 and 100.'));
  const range = readRange(query, 'created[gte]', 'created[lt]');
  if (!range) return reply(400, stripeErrors.invalidParam('created', 'Invalid timestamp.'));
  const cursorId = query.get('starting_after');
  const cursor = cursorId ? engine.statement.balance.get(cursorId) : undefined;
  if (cursorId && !cursor) return reply(400, stripeErrors.resourceMissing(cursorId));
  const fault = engine.faults.takeStatementFault(['has_more_empty', 'has_more_unreadable']);
  if (fault) {
    // A page that claims more with nothing to page from: a reader that takes it as the end has read half a day.
    engine.stats.countFault(`statement_${fault}`);
    return reply(200, { object: 'list', data: fault === 'has_more_empty' ? [] : null, has_more: true, url: '/v1/balance_transactions' });
  }
  const expand = query.getAll('expand[]').includes('data.source');
  const data: Record<string, unknown>[] = [];
  let hasMore = false;
  for (const entry of engine.statement.balance.newestFirst(range, cursor)) {
    if (data.length === limit) {
      hasMore = true;
      break;
    }
    data.push(balanceTransactionJson(entry, expand));
  }
  reply(200, { object: 'list', data, has_more: hasMore, url: '/v1/balance_transactions' });
}

/** `POST /v1/reporting/report_runs`: only the itemized balance change report is simulated. */
export async function createReportRun(engine: StripeEngine, request: IncomingMessage, reply: QueryReply): Promise<void> {
  const form = parseFormBody(await readBody(request));
  const reportType = formString(form, 'report_type');
  if (reportType !== SUPPORTED_REPORT) return reply(400, stripeErrors.invalidParam('report_type', `The simulator only runs ${SUPPORTED_REPORT}.`));
  const start = Number(formString(form, 'parameters', 'interval_start'));
  const end = Number(formString(form, 'parameters', 'interval_end'));
  if (!Number.isInteger(start) || !Number.isInteger(end) || end <= start) {
    return reply(400, stripeErrors.invalidParam('parameters[interval_start]', 'interval_start and interval_end must be timestamps, start before end.'));
  }
  const columns = formList(form, 'parameters', 'columns');
  const id = engine.statement.reportRuns.create(
    { report_type: reportType, parameters: { interval_start: start, interval_end: end, columns: columns.length > 0 ? columns : DEFAULT_COLUMNS } },
    headerValue(request, 'idempotency-key'),
    engine.config.reportDelayMs,
    Date.now(),
  );
  reply(200, engine.statement.reportRuns.get(id, Date.now(), fileUrlFor(request)));
}

export function retrieveReportRun(engine: StripeEngine, request: IncomingMessage, id: string, reply: QueryReply): void {
  const run = engine.statement.reportRuns.get(id, Date.now(), fileUrlFor(request));
  if (run) reply(200, run);
  else reply(404, stripeErrors.resourceMissing(id));
}

/** `GET /v1/reporting/report_types/:id`: when the simulated data of the itemized report ends (`reportDataAvailableEnd`). */
export function retrieveReportType(engine: StripeEngine, id: string, reply: QueryReply): void {
  if (id !== SUPPORTED_REPORT) return reply(404, stripeErrors.resourceMissing(id));
  const now = Math.floor(Date.now() / 1000);
  reply(200, {
    id,
    object: 'reporting.report_type',
    name: 'Itemized balance change from activity',
    data_available_start: 0,
    data_available_end: engine.config.reportDataAvailableEnd ?? now + 7 * 86_400,
    default_columns: DEFAULT_COLUMNS,
    livemode: false,
    updated: now,
    version: 3,
  });
}

/** `GET /v1/files/:id/contents`: the report's CSV, written as the client reads it (backpressure honoured). */
export async function streamReportFile(engine: StripeEngine, fileId: string, response: ServerResponse, reply: QueryReply): Promise<void> {
  const run = engine.statement.reportRuns.runOfFile(fileId);
  if (!run) return reply(404, stripeErrors.resourceMissing(fileId));
  const { interval_start: gte, interval_end: lt, columns } = run.parameters;
  response.writeHead(200, { 'Content-Type': 'text/csv' });
  const stallAfter = engine.config.reportStallAfterLines;
  const rowOf = reportCsvRowWriter(columns);
  let written = 0;
  // Lines go out in chunks of about 64 KiB: one socket write per line costs more than the line itself.
  let chunk = `${columns.map(csvField).join(',')}\n`;
  const flush = async () => {
    const full = !response.write(chunk);
    chunk = '';
    if (full) await drainedOrClosed(response);
  };
  for (const entry of engine.statement.balance.oldestFirst({ gte, lt })) {
    if (response.destroyed) return;
    if (stallAfter !== null && written === stallAfter) {
      // A provider that stops sending mid-file: the client's idle timeout (or the test) ends it.
      await flush();
      engine.stats.countFault('report_stall');
      return engine.hangs.hold(response, engine.config.hangMs);
    }
    written += 1;
    chunk += `${rowOf(entry)}\n`;
    if (chunk.length >= 65_536) await flush();
  }
  if (chunk) await flush();
  response.end();
}

/** Waits for room in the socket buffer, or for the client to have gone, leaving no listener behind. */
function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}

function readRange(query: URLSearchParams, gteName: string, ltName: string): BalanceRange | null {
  const range: BalanceRange = {};
  const gte = query.get(gteName);
  const lt = query.get(ltName);
  if (gte !== null) range.gte = Number(gte);
  if (lt !== null) range.lt = Number(lt);
  return Object.values(range).every((v) => Number.isInteger(v)) ? range : null;
}

/** Where this simulator serves files, as the client reached it (Stripe's are on files.stripe.com). */
function fileUrlFor(request: IncomingMessage): (fileId: string) => string {
  const host = request.headers.host ?? '127.0.0.1';
  return (fileId) => `http://${host}/v1/files/${fileId}/contents`;
}

function formList(form: ReturnType<typeof parseFormBody>, ...path: string[]): string[] {
  let node: unknown = form;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  if (Array.isArray(node)) return node.filter((v): v is string => typeof v === 'string');
  return typeof node === 'string' ? [node] : [];
}
