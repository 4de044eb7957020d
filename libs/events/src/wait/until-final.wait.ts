import { Injectable } from '@nestjs/common';
import { ObjectWaiters } from './object-waiters.registry.js';

/** The longest a request may wait for an object to settle (`waitForFinal` in ms). */
export const WAIT_FOR_FINAL_MAX_MS = 30_000;

/**
 * Reads an object until it is final or `timeoutMs` have passed, reading again only when an event of the object
 * committed (the listener's NOTIFY) or the listener reconnected: no polling loop against PostgreSQL. At the timeout
 * it answers a fresh read; when the client goes away it stops and its place is given back.
 */
@Injectable()
export class UntilFinal {
  constructor(private readonly waiters: ObjectWaiters) {}

  async read<T>(key: string, timeoutMs: number, read: () => Promise<T>, isFinal: (view: T) => boolean, signal: AbortSignal): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    // Registered before the first read, so a commit between that read and the wait still wakes it.
    const waiter = this.waiters.register(key);
    try {
      let view = await read();
      while (!isFinal(view)) {
        const woke = await waiter.next(deadline - Date.now(), signal);
        if (woke === 'aborted' || woke === 'closing') return view;
        view = await read();
        if (woke === 'timeout') return view;
      }
      return view;
    } finally {
      this.waiters.remove(waiter);
    }
  }
}
