import type { EntityManager } from 'typeorm';
import type { ChargeEntity } from '@app/database';
import { holdRefundAmount } from '@app/charges/store';
import { RefundExceedsRefundableError } from './refunds.errors.js';

/**
 * Under the charge row lock: the refund's amount is held on the charge only while it fits what is refundable
 * (the charges' store decides in one conditional update); otherwise the refund is refused with what still fits.
 */
export async function commitRefundAmount(em: EntityManager, charge: ChargeEntity, amountCents: number): Promise<void> {
  const refundable = await holdRefundAmount(em, charge.id, amountCents);
  if (refundable !== null) throw new RefundExceedsRefundableError(charge.id, amountCents, refundable);
}
