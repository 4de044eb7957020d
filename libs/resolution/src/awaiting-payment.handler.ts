import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProviderCallRecorder, ProviderFactApplier, markAwaitingPayment } from '@app/attempts';
import { isRecord } from '@app/common';
import { AppConfig } from '@app/config';
import { GatewayRegistry, type ProviderCharge } from '@app/gateways';
import { AttemptJobs } from '@app/queues';
import { openReviewItem } from '@app/review/items';
import { isExhausted, resolutionDelayMs } from './rules/resolution-schedule.js';

/** The check is scheduled a little after the deadline, so it never wakes on the wrong side of it. */
const DEADLINE_MARGIN_MS = 1_000;

interface Deadline {
  at: Date;
  passed: boolean;
  msLeft: number;
}

/**
 * A created boleto or Pix waiting for its payer (DESIGN.md section 6, issue 24): not unknown, so no try counts
 * against it and no person is asked; it is checked again at the end of its due date plus
 * ASAAS_OVERDUE_GRACE_DAYS (in RECONCILIATION_TZ, by the database's clock). Past that, still unpaid, it is
 * cancelled at the provider first, so it can no longer be paid, and only then failed on the provider's word. A
 * cancel that does not go through fails nothing: the next try reads the charge again (paid: a success).
 */
@Injectable()
export class AwaitingPaymentHandler {
  private readonly logger = new Logger(AwaitingPaymentHandler.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly calls: ProviderCallRecorder,
    private readonly facts: ProviderFactApplier,
    private readonly jobs: AttemptJobs,
    private readonly config: AppConfig,
  ) {}

  async handle(attempt: { id: string; provider: string }, charge: ProviderCharge & { payableUntil: string }, tryNumber: number): Promise<void> {
    const deadline = await this.deadline(charge.payableUntil);
    if (deadline.passed) await this.cancel(attempt, charge, deadline, tryNumber);
    else await this.awaitPayer(attempt, charge, deadline);
  }

  /** The end of the due date plus the grace days, as an instant in the business's time zone, against the database clock. */
  private async deadline(dueDate: string): Promise<Deadline> {
    const [row] = await this.db.query<Array<{ at: Date; passed: boolean; ms_left: number }>>(
      `SELECT at, clock_timestamp() >= at AS passed, GREATEST(0, EXTRACT(EPOCH FROM at - clock_timestamp()) * 1000)::float8 AS ms_left
         FROM (SELECT ($1::date + $2::int + 1)::timestamp AT TIME ZONE $3 AS at) d`,
      [dueDate, this.config.ASAAS_OVERDUE_GRACE_DAYS, this.config.RECONCILIATION_TZ],
    );
    return { at: row.at, passed: row.passed, msLeft: row.ms_left };
  }

  private async awaitPayer(attempt: { id: string; provider: string }, charge: ProviderCharge, deadline: Deadline): Promise<void> {
    const awaiting = await this.db.transaction(async (em) => {
      // Through the applier: it records the provider's id (or puts a contradiction before a person).
      const fact = { outcome: 'pending' as const, providerChargeId: charge.providerChargeId, amountCents: charge.amountCents, currency: charge.currency };
      const disposition = await this.facts.apply(em, attempt.id, fact, { cause: 'resolver', actor: 'resolver', evidence: { reason: 'awaiting_payment', dueDate: charge.payableUntil } });
      if (disposition.action === 'review') return false;
      // Waiting for a payer is no failed try: the count starts again, and only an undecided answer after it counts.
      return markAwaitingPayment(em, attempt.id, deadline.at, charge.providerChargeId);
    });
    if (!awaiting) return;
    // One reminder per deadline; the sweeper leaves an awaiting attempt alone until then, and recreates it after.
    await this.jobs.scheduleResolution(attempt.id, attempt.provider, Math.floor(deadline.at.getTime() / 1000), deadline.msLeft + DEADLINE_MARGIN_MS);
  }

  private async cancel(attempt: { id: string; provider: string }, charge: ProviderCharge & { payableUntil: string }, deadline: Deadline, tryNumber: number): Promise<void> {
    const result = await this.gateways.get(attempt.provider).cancelCharge(charge.providerChargeId);
    const summary = result.kind === 'cancelled' ? { kind: result.kind, body: result.body } : { kind: result.kind, message: result.message, httpStatus: result.httpStatus };
    await this.calls.recordAnswer(attempt, 'cancel', result, { providerChargeId: charge.providerChargeId, result: summary });
    const evidence = {
      reason: 'unpaid_after_due_date',
      providerChargeId: charge.providerChargeId,
      providerStatus: isRecord(charge.raw) ? charge.raw.status : null,
      dueDate: charge.payableUntil,
      graceDays: this.config.ASAAS_OVERDUE_GRACE_DAYS,
      deadline: deadline.at.toISOString(),
    };
    this.logger.log({ attemptId: attempt.id, provider: attempt.provider, providerChargeId: charge.providerChargeId, cancel: result.kind }, 'unpaid past its due date: cancel');
    if (result.kind === 'cancelled') {
      const fact = { outcome: 'failed' as const, providerChargeId: charge.providerChargeId, amountCents: charge.amountCents, currency: charge.currency };
      await this.db.transaction((em) => this.facts.apply(em, attempt.id, fact, { cause: 'resolver', actor: 'resolver', evidence: { ...evidence, cancel: result.body } }));
      return;
    }
    // Refused (paid meanwhile?) or unanswered: nothing is proven, so nothing fails; the next try reads the charge again.
    if (isExhausted(tryNumber, this.config.RESOLUTION_MAX_TRIES)) {
      await this.db.transaction((em) => openReviewItem(em, attempt.id, 'tries_exhausted', { ...evidence, cancel: summary }));
      return;
    }
    await this.jobs.scheduleResolution(attempt.id, attempt.provider, tryNumber, resolutionDelayMs(this.config.RESOLUTION_BACKOFF_MS, tryNumber + 1));
  }
}
