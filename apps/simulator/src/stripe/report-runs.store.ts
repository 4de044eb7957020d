import { newStripeId } from '../ids.js';

export interface ReportRun {
  id: string;
  object: 'reporting.report_run';
  created: number;
  report_type: string;
  parameters: { interval_start: number; interval_end: number; columns: string[]; timezone?: string };
  status: 'pending' | 'succeeded' | 'failed';
  result: { id: string; object: 'file'; purpose: 'finance_report_run'; type: 'csv'; url: string } | null;
  error: string | null;
  livemode: false;
  succeeded_at: number | null;
}

/** Report runs, ready `delayMs` after creation; one per idempotency key, as Stripe replays a create. */
export class ReportRunStore {
  private readonly runs = new Map<string, { run: ReportRun; readyAtMs: number }>();
  private readonly byKey = new Map<string, string>();
  private readonly files = new Map<string, ReportRun>();

  /** Returns the run's id; read it with `get`. */
  create(input: Pick<ReportRun, 'report_type' | 'parameters'>, key: string | null, delayMs: number, nowMs: number): string {
    const existing = key ? this.byKey.get(key) : undefined;
    if (existing) return existing;
    const run: ReportRun = {
      id: newStripeId('frr'),
      object: 'reporting.report_run',
      created: Math.floor(nowMs / 1000),
      ...input,
      status: 'pending',
      result: null,
      error: null,
      livemode: false,
      succeeded_at: null,
    };
    this.runs.set(run.id, { run, readyAtMs: nowMs + delayMs });
    if (key) this.byKey.set(key, run.id);
    return run.id;
  }

  /** The run as it stands now; `fileUrl` builds the result's download address once it is ready. */
  get(id: string, nowMs: number, fileUrl?: (fileId: string) => string): ReportRun | undefined {
    const held = this.runs.get(id);
    if (!held) return undefined;
    if (held.run.status === 'pending' && nowMs >= held.readyAtMs) {
      const fileId = newStripeId('file');
      held.run.status = 'succeeded';
      held.run.succeeded_at = Math.floor(nowMs / 1000);
      held.run.result = { id: fileId, object: 'file', purpose: 'finance_report_run', type: 'csv', url: fileUrl?.(fileId) ?? `/v1/files/${fileId}/contents` };
      this.files.set(fileId, held.run);
    }
    return held.run;
  }

  runOfFile(fileId: string): ReportRun | undefined {
    return this.files.get(fileId);
  }

  clear(): void {
    this.runs.clear();
    this.byKey.clear();
    this.files.clear();
  }
}
