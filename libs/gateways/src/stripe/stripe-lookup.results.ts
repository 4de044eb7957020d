import { parseJson } from '@app/common';
import type { ProviderCharge } from '../provider-lookup.result.js';
import type { ProviderHttpResult } from '../http/provider-http.client.js';
import { readIntent, toProviderCharge } from './stripe-intent.response.js';

/** One page of a Stripe list, or why it could not be read (which proves nothing either way). */
export type PageOutcome =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; message: string; httpStatus: number | null };

export function readPage(result: ProviderHttpResult, path: string): PageOutcome {
  if (result.kind !== 'response') {
    return { ok: false, message: `GET ${path}: ${result.kind} (${result.errorCode})`, httpStatus: null };
  }
  const json = parseJson(result.body);
  const body = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : null;
  if (result.status >= 200 && result.status < 300 && body) return { ok: true, body };
  const stripeMessage = (body?.error as { message?: unknown } | undefined)?.message;
  const detail = typeof stripeMessage === 'string' ? `: ${stripeMessage}` : '';
  return { ok: false, message: `GET ${path} answered ${result.status}${detail}`, httpStatus: result.status };
}

/**
 * The items of a Stripe list page (`object: 'list'`), or null when the body
 * is not one: a 200 from a proxy's error page, `{}` or `[]` shows nothing, so it can never prove an absence.
 */
export function listItems(body: Record<string, unknown>): unknown[] | null {
  return body.object === 'list' && Array.isArray(body.data) ? body.data : null;
}

export function matchingCharges(data: unknown, attemptId: string): ProviderCharge[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((raw: unknown) => {
    const intent = readIntent(raw);
    return intent && intent.metadata.attempt_id === attemptId ? [toProviderCharge(intent, raw)] : [];
  });
}
