/** Where a statement comes from: API paging for ordinary days, the provider's report file for large ones. */
export type StatementSource = 'api' | 'report';

/**
 * `payout`: money we sent out (a Pix transfer the provider executed), read from a payout gateway's statement.
 * `custody_block` / `custody_release`: a payment's money held by the provider (Asaas's cautionary block on a
 * Pix, negative) and given back (positive); `dispute` / `dispute_reversal` include Asaas's chargebacks.
 * `payout_return`: money of such a transfer the payee's bank sent back (positive, line id = BACEN's `rtrId`, keyed
 * by the transfer's end-to-end id); its time is the return's, which may be days after the day read.
 * `refund_failure`: a refund's money back in our balance (Stripe's `refund_failure` balance transaction, positive,
 * keyed like the refund line by the refund's id): the refund failed after its refund line was written.
 * `refund_cancelled`: a refund of ours the provider shows CANCELLED (Asaas); it moves no money (its amount is the
 * refund's value, as evidence) and every money step reads only its own kinds.
 */
export type StatementLineKind = 'charge' | 'refund' | 'refund_cancelled' | 'refund_failure' | 'dispute' | 'dispute_reversal' | 'payout' | 'payout_return' | 'custody_block' | 'custody_release' | 'other';

/** One line of the provider's statement (a balance change), normalised; amounts signed, in minor units. */
export interface StatementLine {
  /** The provider's id of the line (Stripe: `txn_...`), unique per provider. */
  lineId: string;
  kind: StatementLineKind;
  /** The id our attempts carry (Stripe: the PaymentIntent id; Efí: the Pix end-to-end id); for a refund or dispute, that of the payment. */
  providerChargeId: string | null;
  /** Our references, from the payment's metadata, when the provider gives them back. */
  attemptId: string | null;
  chargeId: string | null;
  amountCents: number;
  currency: string;
  createdAt: Date;
  /** The provider's own id of the operation when it is not the line id (Efí: the transfer's idEnvio; Stripe: a refund's `re_...`). */
  reference?: string | null;
  /** The provider's own word for the operation's state (Efí: REALIZADO, NAO_REALIZADO...), kept as evidence. */
  providerStatus?: string | null;
}

export interface StatementRequest {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  source: StatementSource;
  /** Stable per run: lets a run taken over by another worker reuse the report it already requested. */
  requestKey: string;
  signal?: AbortSignal;
  /** Told where the read's time goes, by readers that measure it. */
  timing?: StatementTiming;
}

/**
 * Milliseconds a reader spent waiting for the provider's bytes (`download`, only while nothing else could proceed)
 * and turning them into lines (`parse`), added as they pass.
 */
export interface StatementTiming {
  add(phase: 'download' | 'parse', ms: number): void;
}
