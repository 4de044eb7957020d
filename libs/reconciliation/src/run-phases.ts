import type { StatementTiming } from '@app/gateways';

/**
 * Milliseconds per phase of one run, logged with its outcome: where a large day's time goes. The statement is
 * streamed, so its phases interleave: the reader adds what it waited for the provider (`download`) and spent
 * turning bytes into lines (`parse`), and the rest of the streamed read is encoding rows and writing them (`copy`).
 */
export class RunPhases implements StatementTiming {
  private readonly ms: Record<string, number> = {};
  private mark = performance.now();

  add(phase: 'download' | 'parse', ms: number): void {
    this.ms[phase] = (this.ms[phase] ?? 0) + ms;
  }

  /** Ends the phase that began at the previous lap (or at construction). */
  lap(phase: string): void {
    this.ms[phase] = (this.ms[phase] ?? 0) + this.sinceMark();
  }

  /** Ends the streamed read: what its reader did not account for was COPY's (all of it, for a reader that measures nothing). */
  lapStreamedRead(): void {
    const read = this.sinceMark();
    const sourced = (this.ms.download ?? 0) + (this.ms.parse ?? 0);
    this.ms[sourced > 0 ? 'copy' : 'read_and_copy'] = read - sourced;
  }

  rounded(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.ms).map(([phase, ms]) => [phase, Math.round(ms)]));
  }

  private sinceMark(): number {
    const now = performance.now();
    const elapsed = now - this.mark;
    this.mark = now;
    return elapsed;
  }
}
