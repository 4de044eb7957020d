import { ApiProperty } from '@nestjs/swagger';
import { ATTEMPT_STATUSES } from '@app/attempts/rules';
import type { PayoutRequestDetailView } from '@app/ledger';
import type { PayoutAttemptView, PayoutReturnView, PayoutStatus, PayoutView } from '@app/payouts';

export class PayoutAttemptViewDto implements PayoutAttemptView {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'the Pix transfer id sent to the provider (Efí idEnvio): the attempt id as 32 hex characters' }) transferId: string;
  @ApiProperty({ example: 'efi' }) provider: string;
  @ApiProperty({ enum: ATTEMPT_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true, description: "the provider's end-to-end id once known" }) endToEndId: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'when the provider was found to have executed this transfer after the attempt had failed: the payout is paid and its money debited late' }) lateExecutedAt: string | null;
  @ApiProperty() httpAttempts: number;
  @ApiProperty({ type: Object, nullable: true }) lastError: object | null;
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: String, nullable: true }) resolvedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'submit, resolver, webhook, reviewer, sweeper' }) resolvedBy: string | null;
}

export class PayoutReturnViewDto implements PayoutReturnView {
  @ApiProperty({ description: "BACEN's return id (rtrId)" }) rtrId: string;
  @ApiProperty({ description: 'the end-to-end id of the transfer it came back from' }) endToEndId: string;
  @ApiProperty({ description: 'integer minor units' }) amountCents: number;
  @ApiProperty({ description: "when the payee's bank sent it back" }) returnedAt: string;
  @ApiProperty({ description: 'when we credited it to the account' }) recordedAt: string;
}

export class PayoutViewDto implements PayoutView {
  @ApiProperty() id: string;
  @ApiProperty() accountId: string;
  @ApiProperty({ description: 'integer minor units' }) amountCents: number;
  @ApiProperty({ example: 'brl' }) currency: string;
  @ApiProperty({ example: 'cpf' }) pixKeyType: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: ['processing', 'succeeded', 'failed', 'in_review'] }) status: PayoutStatus;
  @ApiProperty({ description: "integer minor units the payee's bank sent back, credited to the account again; the payout stays paid" }) returnedCents: number;
  @ApiProperty({ type: [PayoutReturnViewDto] }) returns: PayoutReturnViewDto[];
  @ApiProperty() createdAt: string;
  @ApiProperty({ type: [PayoutAttemptViewDto] }) attempts: PayoutAttemptViewDto[];
}

export class PayoutRequestDto {
  @ApiProperty({ format: 'uuid', description: 'confirm it at POST /accounts/:id/payouts/requests/:requestId/confirm' }) id: string;
  @ApiProperty({ enum: ['payout'] }) kind: string;
  @ApiProperty({ description: 'integer minor units' }) amountCents: number;
  @ApiProperty() reference: string;
  @ApiProperty({ description: 'the admin (person) who asked; another person must confirm' }) requestedBy: string;
  @ApiProperty({ enum: ['awaiting_second', 'confirmed'] }) state: string;
  @ApiProperty({ type: String, nullable: true }) confirmedBy: string | null;
  @ApiProperty({ example: 'email' }) pixKeyType: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
}

export class PayoutRequestViewDto {
  @ApiProperty({ type: PayoutRequestDto, description: 'nothing is reserved or sent until another admin confirms' }) request: PayoutRequestDto;
}

/** What a confirming admin reads before confirming: the payee, amount and words the payout would send. Admins only. */
export class PayoutRequestDetailDto implements PayoutRequestDetailView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['payout'] }) kind: 'payout';
  @ApiProperty({ description: 'integer minor units' }) amountCents: number;
  @ApiProperty({ description: 'payout-request:key:<hash> when asked with an Idempotency-Key' }) reference: string;
  @ApiProperty({ description: 'the admin (person) who asked' }) requestedBy: string;
  @ApiProperty() requestedAt: string;
  @ApiProperty({ enum: ['awaiting_second', 'confirmed'] }) state: string;
  @ApiProperty({ type: String, nullable: true }) confirmedBy: string | null;
  @ApiProperty({ type: String, nullable: true }) confirmedAt: string | null;
  @ApiProperty({ description: 'the payee Pix key, exactly as it will be sent (admins only)' }) pixKey: string;
  @ApiProperty({ example: 'email' }) pixKeyType: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'the payout the confirmation opened' }) payoutId: string | null;
}
