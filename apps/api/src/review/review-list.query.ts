import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';

export class ReviewListQuery {
  @ApiPropertyOptional({ enum: ['open', 'claimed', 'awaiting_second', 'closed'], description: 'default: every item not closed' })
  @IsOptional() @IsIn(['open', 'claimed', 'awaiting_second', 'closed'], { message: 'state must be one of open, claimed, awaiting_second, closed' })
  state?: 'open' | 'claimed' | 'awaiting_second' | 'closed';

  @ApiPropertyOptional({ example: 'stripe' })
  @IsOptional() @IsString() @Length(1, 50)
  provider?: string;

  @ApiPropertyOptional({ example: 'tries_exhausted' })
  @IsOptional() @IsString() @Matches(/^[a-z_]{1,64}$/, { message: 'reason must be a review reason such as tries_exhausted' })
  reason?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'only this merchant\'s items' })
  @IsOptional() @IsUUID('4', { message: 'merchantId must be a merchant id (uuid)' })
  merchantId?: string;

  @ApiPropertyOptional({ description: 'only charges of at least this many minor units' })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'minAmountCents must be an integer number of minor units' }) @Min(0) @Max(Number.MAX_SAFE_INTEGER)
  minAmountCents?: number;

  @ApiPropertyOptional({ description: 'opened more than this long ago (90s, 15m, 4h, 2d) or before an ISO-8601 instant', example: '15m' })
  @IsOptional() @IsString() @Length(1, 40)
  olderThan?: string;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional() @IsString() @Length(1, 200)
  cursor?: string;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 200 })
  @IsOptional() @Type(() => Number) @IsInt({ message: 'limit must be an integer' }) @Min(1) @Max(200)
  limit?: number;
}
