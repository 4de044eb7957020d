import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Decides, at the moment a request would be written to its socket, whether it may still leave: a paced query's
 * slot is a promise about when the query reaches the provider, and a query held up after its slot was checked (a
 * busy event loop, a pool waiting for a connection) would break it. Asked once per request, before any byte is
 * written; a refusal ends the call as `connect_failed` (nothing left), so the caller may ask again.
 */
export interface QuerySendGate {
  mayLeave(): boolean;
}

export const SLOT_MISSED = 'SLOT_MISSED';

const gates = new AsyncLocalStorage<QuerySendGate>();

/**
 * Runs `call` with every provider request it makes passing `gate` first. Carried by the async context rather than
 * through each provider's ports: the lookup ports stay about what to ask, the pacer about when.
 */
export function sendThroughGate<T>(gate: QuerySendGate, call: () => Promise<T>): Promise<T> {
  return gates.run(gate, call);
}

/** The gate of the call in progress, read when a request starts (synchronously, so the context is the caller's). */
export function currentSendGate(): QuerySendGate | undefined {
  return gates.getStore();
}
