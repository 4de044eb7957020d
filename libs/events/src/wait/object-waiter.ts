export type WakeReason = 'notified' | 'timeout' | 'aborted' | 'closing';

/**
 * One waiting request. A notification that comes while nobody is waiting is kept, so the next `next()` returns at
 * once: the request registers before it reads, and a commit between its read and its wait is never missed.
 */
export class ObjectWaiter {
  private pending: WakeReason | null = null;
  private wake: ((reason: WakeReason) => void) | null = null;

  constructor(readonly key: string) {}

  notify(reason: 'notified' | 'closing' = 'notified'): void {
    if (this.pending !== 'closing') this.pending = reason;
    const wake = this.wake;
    this.wake = null;
    wake?.(reason);
  }

  /** Resolves on a notification since the last call, when `ms` have passed, or when the client went away. */
  next(ms: number, signal: AbortSignal): Promise<WakeReason> {
    if (signal.aborted) return Promise.resolve('aborted');
    if (this.pending) {
      const reason = this.pending;
      if (reason !== 'closing') this.pending = null;
      return Promise.resolve(reason);
    }
    if (ms <= 0) return Promise.resolve('timeout');
    return new Promise((resolve) => {
      const done = (reason: WakeReason) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.wake = null;
        if (reason !== 'closing') this.pending = null;
        resolve(reason);
      };
      const onAbort = () => done('aborted');
      const timer = setTimeout(() => done('timeout'), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.wake = done;
    });
  }
}
