import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class CreateRefundDto {
  @ApiProperty({ description: 'integer minor units (cents), at most what is still refundable', example: 1000 })
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  amountCents: number;

  @ApiPropertyOptional({ description: 'why, for the merchant and reviewers (not sent to the provider)', example: 'customer returned the item' })
  @IsOptional() @IsString() @Length(1, 500)
  reason?: string;
}
