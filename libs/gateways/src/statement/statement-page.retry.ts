import { setTimeout as sleep } from 'node:timers/promises';
import { StatementUnavailableError } from '../statement.errors.js';

export type StatementPage = { ok: true; body: Record<string, unknown> } | { ok: false; message: string; httpStatus: number | null };

/** Reads are safe to repeat: a page that fails is asked again a few times before the whole run gives up. */
const PAGE_TRIES = 4;
const PAGE_RETRY_BASE_MS = 250;

/** One statement page, asked again on a 5xx, 429 or lost connection; any other refusal ends the run at once. */
export async function readStatementPage(read: () => Promise<StatementPage>, signal?: AbortSignal): Promise<Record<string, unknown>> {
  let failure: { message: string; httpStatus: number | null } = { message: 'not tried', httpStatus: null };
  for (let attempt = 0; attempt < PAGE_TRIES; attempt += 1) {
    if (attempt > 0) await sleep(PAGE_RETRY_BASE_MS * 2 ** (attempt - 1), undefined, { signal });
    const outcome = await read();
    if (outcome.ok) return outcome.body;
    failure = outcome;
    // A 4xx other than 429 will answer the same again.
    if (outcome.httpStatus !== null && outcome.httpStatus < 500 && outcome.httpStatus !== 429) break;
  }
  throw new StatementUnavailableError(failure.message, failure.httpStatus);
}
