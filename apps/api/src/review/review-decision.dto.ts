import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { REVIEW_FOLLOW_UPS, type ReviewFollowUp } from '@app/database';

export class ReviewDecisionDto {
  @ApiProperty({ enum: ['succeeded', 'failed', 'acknowledge'], description: 'succeeded/failed for an unknown attempt; acknowledge for a terminal one' })
  @IsIn(['succeeded', 'failed', 'acknowledge'], { message: 'action must be one of succeeded, failed, acknowledge' })
  action: 'succeeded' | 'failed' | 'acknowledge';

  @ApiPropertyOptional({ description: 'for succeeded: the provider charge that proves it, verified by a lookup', example: 'pi_3Nabc' })
  @IsOptional() @IsString() @Length(1, 255) @Matches(/^[A-Za-z0-9_-]+$/, { message: 'providerChargeId may contain letters, digits, "_" and "-"' })
  providerChargeId?: string;

  @ApiPropertyOptional({
    enum: REVIEW_FOLLOW_UPS,
    description: 'required for acknowledge; a late capture (the item names lateCaptureProviderChargeId) takes keep_capture or refund_capture',
  })
  @IsOptional() @IsIn(REVIEW_FOLLOW_UPS, { message: `followUp must be one of ${REVIEW_FOLLOW_UPS.join(', ')}` })
  followUp?: ReviewFollowUp;

  @ApiProperty({ description: 'why, in words a colleague will understand later', example: 'Stripe dashboard shows the intent succeeded at 10:02' })
  @IsString() @Length(3, 2000, { message: 'reason must be 3 to 2000 characters' })
  reason: string;
}

export class ReviewReasonDto {
  @ApiProperty({ description: 'why', example: 'checked the provider dashboard: the amounts agree' })
  @IsString() @Length(3, 2000, { message: 'reason must be 3 to 2000 characters' })
  reason: string;
}
