import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProviderCallRecorder, ProviderFactApplier, isCapture } from '@app/attempts';
import { isUuid } from '@app/common';
import type { RefundProposalEntity } from '@app/database';
import { GatewayRegistry, summariseRetrieve } from '@app/gateways';
import { RefundProposalNotCapturedError, RefundProposalUnverifiedError } from './reconciliation.errors.js';

/**
 * The fresh provider check before a proposal executes whose provider charge a *failed* attempt of ours holds (its
 * provider id or late capture, or a failed attempt of the charge the proposal names). A failed attempt can still be
 * contradicted, so the night's snapshot is not enough: the charge is retrieved now, outside any transaction, and
 * must be captured for at least the proposed amount. A capture carrying that attempt's reference is its late
 * capture, recorded first (a provider fact is never dropped), so the approval then sees whose money it is.
 * Returns whether a check was made and passed; false when no failed attempt is involved (nothing to check).
 */
@Injectable()
export class ProposalProviderCheck {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly gateways: GatewayRegistry,
    private readonly calls: ProviderCallRecorder,
    private readonly facts: ProviderFactApplier,
  ) {}

  async run(proposal: RefundProposalEntity, actor: string): Promise<boolean> {
    const { provider, providerChargeId } = proposal;
    const [held] = await this.db.query<Array<{ id: string }>>(
      `SELECT id FROM attempts
        WHERE operation = 'charge' AND provider = $1 AND status = 'failed'
          AND (provider_ref = $2 OR late_capture_provider_charge_id = $2 OR charge_id = $3)
        ORDER BY (provider_ref = $2 OR late_capture_provider_charge_id = $2) DESC LIMIT 1`,
      [provider, providerChargeId, proposal.chargeId],
    );
    if (!held) return false;
    const result = await this.gateways.get(provider).retrieveCharge(providerChargeId);
    const evidence = { refundProposalId: proposal.id, check: 'retrieve_by_id', result: summariseRetrieve(result) };
    await this.calls.record({
      attemptId: held.id,
      provider,
      kind: 'proposal_check',
      outcome: result.kind,
      httpStatus: result.kind === 'error' ? result.httpStatus : result.kind === 'not_found' ? 404 : 200,
      durationMs: result.durationMs,
      detail: evidence,
    });
    const refuse = (why: string) => new RefundProposalNotCapturedError(proposal.id, providerChargeId, why, evidence);
    if (result.kind === 'error') throw new RefundProposalUnverifiedError(proposal.id, providerChargeId, result.message);
    if (result.kind === 'not_found') throw refuse('the provider has no such charge');
    const charge = result.charge;
    if (charge.outcome !== 'succeeded') throw refuse(`the provider holds it as ${charge.outcome}, not captured`);
    if (charge.currency.toLowerCase() !== proposal.currency.trim().toLowerCase() || !(charge.amountCents >= proposal.amountCents)) {
      throw refuse(`the provider holds ${charge.amountCents} ${charge.currency}, not the ${proposal.amountCents} ${proposal.currency} proposed`);
    }
    const owner = charge.attemptId !== null && isUuid(charge.attemptId) ? charge.attemptId : null;
    const [failedOwner] = owner
      ? await this.db.query<Array<{ id: string }>>(
          // Only while its charge has no capture: a charge captured by another provider charge makes this one a
          // duplicate, already before a person, and exactly what the proposal gives back.
          `SELECT a.id FROM attempts a WHERE a.id = $1 AND a.operation = 'charge' AND a.provider = $2 AND a.status = 'failed'
              AND NOT EXISTS (SELECT 1 FROM attempts c WHERE c.charge_id = a.charge_id AND c.operation = 'charge' AND ${isCapture('c')})`,
          [owner, provider],
        )
      : [];
    if (failedOwner) {
      const fact = { outcome: 'succeeded' as const, providerChargeId, amountCents: charge.amountCents, currency: charge.currency };
      await this.db.transaction((em) => this.facts.apply(em, failedOwner.id, fact, { cause: 'reconciliation', actor, evidence }));
    }
    return true;
  }
}
