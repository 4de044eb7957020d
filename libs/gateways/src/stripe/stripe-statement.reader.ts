import { setTimeout as sleep } from 'node:timers/promises';
import { StringDecoder } from 'node:string_decoder';
import type { ProviderHttpClient } from '../http/provider-http.client.js';
import type { StatementLine, StatementRequest } from '../statement/statement-line.js';
import { StatementNotYetAvailableError, StatementUnavailableError } from '../statement.errors.js';
import { CsvRecords } from '../statement/csv-records.js';
import { readStatementPage, type PageReading } from '../statement/statement-page.retry.js';
import { listItems, readPage } from './stripe-lookup.results.js';
import { STRIPE_REPORT_COLUMNS, STRIPE_REPORT_TYPE, lineFromBalanceTransaction, reportRecordReader } from './stripe-statement.lines.js';

export interface StripeStatementSettings {
  apiBase: string;
  headers: Readonly<Record<string, string>>;
  reportPollMs: number;
  reportTimeoutMs: number;
}

const PAGE_SIZE = 100;
const STRIPE_FILES_ORIGIN = 'https://files.stripe.com';

/** Stripe's statement, both ways: balance transactions page by page, or the itemized report's CSV, streamed. */
export class StripeStatementReader {
  constructor(
    private readonly http: ProviderHttpClient,
    private readonly settings: StripeStatementSettings,
  ) {}

  /**
   * `GET /v1/balance_transactions` newest first, 100 a page, each line's source expanded. The next page is asked
   * for as soon as this one names its cursor, so the provider's answer travels while this page's lines are
   * written; one page ahead at most, and none left running once the read ends.
   */
  async *apiLines(request: StatementRequest): AsyncGenerator<StatementLine> {
    const base: Record<string, string> = {
      'created[gte]': String(Math.floor(request.from.getTime() / 1000)),
      'created[lt]': String(Math.ceil(request.to.getTime() / 1000)),
      limit: String(PAGE_SIZE),
      'expand[]': 'data.source',
    };
    const ended = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, ended.signal]) : ended.signal;
    const pageAfter = (startingAfter: string | null) => {
      const asked = this.getJson('/v1/balance_transactions', startingAfter ? { ...base, starting_after: startingAfter } : base, readBalancePage, signal);
      // A page asked ahead whose read ends first (an error, or the consumer stopped) must not fail unobserved.
      asked.catch(() => undefined);
      return asked;
    };
    let next = pageAfter(null);
    try {
      for (;;) {
        const waiting = performance.now();
        const page = await next;
        const parsing = performance.now();
        request.timing?.add('download', parsing - waiting);
        if (page.next !== null) next = pageAfter(page.next);
        const lines = page.data.map(lineFromBalanceTransaction);
        request.timing?.add('parse', performance.now() - parsing);
        yield* lines;
        if (page.next === null) return;
      }
    } finally {
      ended.abort();
    }
  }

  /**
   * Requests the itemized report for the interval, waits for it, then parses its CSV as it downloads: each chunk of
   * bytes becomes its lines at once (one array of fields per record, no object per row), then they are handed on.
   */
  async *reportLines(request: StatementRequest): AsyncGenerator<StatementLine> {
    const fileUrl = await this.reportFileUrl(request);
    const result = await this.http.stream({ method: 'GET', url: fileUrl, headers: this.settings.headers, signal: request.signal });
    if (result.kind !== 'response') throw new StatementUnavailableError(`report file: ${result.kind} (${result.errorCode})`);
    if (result.status !== 200) {
      result.body.resume();
      throw new StatementUnavailableError(`report file answered ${result.status}`, result.status);
    }
    const csv = new CsvRecords();
    const text = new StringDecoder('utf8');
    let lineOf: ((fields: readonly string[]) => StatementLine) | null = null;
    const linesOf = (records: string[][]): StatementLine[] => {
      const lines: StatementLine[] = [];
      for (const record of records) {
        if (lineOf) lines.push(lineOf(record));
        else lineOf = reportRecordReader(record);
      }
      return lines;
    };
    try {
      let waitingSince = performance.now();
      for await (const bytes of result.body as AsyncIterable<Buffer>) {
        const parsing = performance.now();
        request.timing?.add('download', parsing - waitingSince);
        const lines = linesOf(csv.push(text.write(bytes)));
        request.timing?.add('parse', performance.now() - parsing);
        yield* lines;
        waitingSince = performance.now();
      }
      yield* linesOf(csv.push(text.end()).concat(csv.end()));
    } catch (error) {
      throw new StatementUnavailableError(`report file: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      result.body.destroy();
    }
  }

  /**
   * Stripe refuses (or cuts short) a report whose interval ends after the report type's `data_available_end`, and
   * the data of a day arrives hours after it ends: a day not covered yet is waited for, never read short.
   */
  private async assertDataAvailable(request: StatementRequest): Promise<void> {
    const type = await this.getJson(`/v1/reporting/report_types/${STRIPE_REPORT_TYPE}`, {}, anyBody, request.signal);
    const end = type.data_available_end;
    if (typeof end !== 'number' || !Number.isFinite(end)) throw new StatementUnavailableError(`report type ${STRIPE_REPORT_TYPE} has no data_available_end`);
    const needed = Math.ceil(request.to.getTime() / 1000);
    if (end < needed) throw new StatementNotYetAvailableError(new Date(end * 1000), new Date(needed * 1000));
  }

  private async reportFileUrl(request: StatementRequest): Promise<string> {
    await this.assertDataAvailable(request);
    const form = new URLSearchParams({
      report_type: STRIPE_REPORT_TYPE,
      'parameters[interval_start]': String(Math.floor(request.from.getTime() / 1000)),
      'parameters[interval_end]': String(Math.ceil(request.to.getTime() / 1000)),
      'parameters[timezone]': 'Etc/UTC',
    });
    for (const column of STRIPE_REPORT_COLUMNS) form.append('parameters[columns][]', column);
    const created = readPage(
      await this.http.send({
        method: 'POST',
        url: `${this.settings.apiBase}/v1/reporting/report_runs`,
        // The same key for a run taken over by another worker: Stripe hands back the report already requested.
        headers: { ...this.settings.headers, 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': request.requestKey },
        body: form.toString(),
        signal: request.signal,
      }),
      '/v1/reporting/report_runs',
    );
    if (!created.ok) throw new StatementUnavailableError(created.message, created.httpStatus);
    const id = String(created.body.id);
    const deadline = Date.now() + this.settings.reportTimeoutMs;
    let run = created.body;
    while (run.status === 'pending') {
      if (Date.now() > deadline) throw new StatementUnavailableError(`report run ${id} still pending after ${this.settings.reportTimeoutMs} ms`);
      await sleep(this.settings.reportPollMs, undefined, { signal: request.signal });
      run = await this.getJson(`/v1/reporting/report_runs/${encodeURIComponent(id)}`, {}, anyBody, request.signal);
    }
    if (run.status !== 'succeeded') throw new StatementUnavailableError(`report run ${id} ${String(run.status)}: ${String(run.error)}`);
    const url = (run.result as { url?: unknown } | null)?.url;
    if (typeof url !== 'string') throw new StatementUnavailableError(`report run ${id} has no result file`);
    return this.trustedFileUrl(url);
  }

  /** The secret key goes only to Stripe's file host or the configured API base, never to a URL from elsewhere. */
  private trustedFileUrl(url: string): string {
    const origin = URL.canParse(url) ? new URL(url).origin : '';
    if (origin === STRIPE_FILES_ORIGIN || origin === new URL(this.settings.apiBase).origin) return url;
    throw new StatementUnavailableError(`report file at an unexpected host: ${origin || url}`);
  }

  private getJson<T>(path: string, params: Record<string, string>, reading: (body: Record<string, unknown>) => PageReading<T>, signal?: AbortSignal): Promise<T> {
    const query = new URLSearchParams(params).toString();
    const url = `${this.settings.apiBase}${path}${query ? `?${query}` : ''}`;
    return readStatementPage(async () => readPage(await this.http.send({ method: 'GET', url, headers: this.settings.headers, signal }), path), reading, signal);
  }
}

function anyBody(body: Record<string, unknown>): PageReading<Record<string, unknown>> {
  return { ok: true, page: body };
}

/**
 * A page of balance transactions and the cursor of the next one (null: the day ends here). Only a list proves
 * anything, and `has_more` with no last item to page from (empty, or without an id) cannot be the day's end.
 */
function readBalancePage(body: Record<string, unknown>): PageReading<{ data: unknown[]; next: string | null }> {
  const data = listItems(body);
  if (!data) return { ok: false, message: 'balance_transactions answered 2xx without a list' };
  if (body.has_more !== true) return { ok: true, page: { data, next: null } };
  const last = data.at(-1) as { id?: unknown } | undefined;
  if (typeof last?.id !== 'string' || last.id === '') return { ok: false, message: 'balance_transactions says has_more but gives no item to page from' };
  return { ok: true, page: { data, next: last.id } };
}
