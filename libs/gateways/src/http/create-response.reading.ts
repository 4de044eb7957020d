import type { IncomingHttpHeaders } from 'node:http';
import { parseJson } from '@app/common';
import type { GatewayCallResult, ProviderError, ProviderOutcome } from '../gateway-call.result.js';
import type { ProviderHttpResult } from './provider-http.client.js';

/** A non-JSON body (a proxy's HTML page, say) is kept as evidence, but only this much of it. */
const MAX_TEXT_BODY = 4096;

/** What an adapter read in a create call's response; `json` is undefined when the body was not JSON. */
export interface CreateResponseReading {
  providerChargeId: string | null;
  providerOutcome: ProviderOutcome | null;
  error: ProviderError | null;
  /** The provider said this answer replays an earlier request with the same key. */
  replayed?: boolean;
  /** The body as it may be stored, when it must not be stored as it came (a secret removed). */
  evidence?: unknown;
}

/**
 * Any adapter's create call as the one classifier reads it: a transport failure passes through; a response
 * keeps its status, what the adapter read in it, and its body as evidence.
 */
export function toCreateCallResult(
  http: ProviderHttpResult,
  read: (json: unknown, response: { status: number; headers: IncomingHttpHeaders }) => CreateResponseReading,
): GatewayCallResult {
  if (http.kind !== 'response') return http;
  const json = parseJson(http.body);
  const { replayed = false, evidence, ...reading } = read(json, http);
  return { kind: 'response', httpStatus: http.status, durationMs: http.durationMs, replayed, ...reading, body: json === undefined ? http.body.slice(0, MAX_TEXT_BODY) : (evidence ?? json) };
}
