import type { ServerResponse } from 'node:http';

/**
 * Holds connections that a hang fault must never answer. Each is released when the client gives up
 * (its read timeout) or after `hangMs`, when the simulator destroys it, so no hang outlives a test.
 */
export class HangTracker {
  private readonly held = new Set<() => void>();
  private readonly deferred = new Set<NodeJS.Timeout>();

  /** Runs `work` after `ms`, unless the simulator closes or resets first. */
  defer(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.deferred.delete(timer);
      work();
    }, ms);
    this.deferred.add(timer);
  }

  /** Never answers `response`; calls `onRelease` once, whichever way the connection ends. */
  hold(response: ServerResponse, hangMs: number, onRelease: () => void = () => undefined): void {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      this.held.delete(release);
      response.socket?.destroy();
      onRelease();
    };
    const timer = setTimeout(release, hangMs);
    response.once('close', release);
    this.held.add(release);
  }

  get size(): number {
    return this.held.size;
  }

  releaseAll(): void {
    for (const timer of this.deferred) clearTimeout(timer);
    this.deferred.clear();
    for (const release of [...this.held]) release();
  }
}
