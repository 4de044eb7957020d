import { setTimeout as sleep } from 'node:timers/promises';
import { StatementUnavailableError } from '../statement.errors.js';

export type StatementPage = { ok: true; body: Record<string, unknown> } | { ok: false; message: string; httpStatus: number | null };

/**
 * What a reader makes of a page that answered 2xx: its content, or why it cannot prove where the day goes on
 * (a list that says it has more with nothing to page from, no page count): a failed page, never the end of the day.
 */
export type PageReading<T> = { ok: true; page: T } | { ok: false; message: string };

/** Reads are safe to repeat: a page that fails is asked again a few times before the whole run gives up. */
const PAGE_TRIES = 4;
const PAGE_RETRY_BASE_MS = 250;

/**
 * One statement page, asked again on a 5xx, 429, lost connection or a 2xx that `reading` cannot use; any other
 * refusal ends the run at once.
 */
export async function readStatementPage<T>(read: () => Promise<StatementPage>, reading: (body: Record<string, unknown>) => PageReading<T>, signal?: AbortSignal): Promise<T> {
  let failure: { message: string; httpStatus: number | null } = { message: 'not tried', httpStatus: null };
  for (let attempt = 0; attempt < PAGE_TRIES; attempt += 1) {
    if (attempt > 0) await sleep(PAGE_RETRY_BASE_MS * 2 ** (attempt - 1), undefined, { signal });
    const outcome = await read();
    const readable = outcome.ok ? reading(outcome.body) : null;
    if (readable?.ok) return readable.page;
    failure = readable && !readable.ok ? { message: readable.message, httpStatus: null } : (outcome as Extract<StatementPage, { ok: false }>);
    // A 4xx other than 429 will answer the same again.
    if (failure.httpStatus !== null && failure.httpStatus < 500 && failure.httpStatus !== 429) break;
  }
  throw new StatementUnavailableError(failure.message, failure.httpStatus);
}
