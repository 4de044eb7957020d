import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';

export class CreateChargeDto {
  @ApiProperty({ example: 'order-42' })
  @IsString() @Length(1, 200)
  orderId: string;

  @ApiProperty({ description: 'integer minor units (cents)', example: 4990 })
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  amountCents: number;

  @ApiProperty({ description: 'lower-case ISO 4217 code', example: 'brl' })
  @IsString() @Matches(/^[a-z]{3}$/, { message: 'currency must be a lower-case ISO 4217 code such as "usd"' })
  currency: string;

  @ApiProperty({ example: 'cus_123' })
  @IsString() @Length(1, 200)
  customerId: string;

  @ApiPropertyOptional({ example: 'pm_card_visa' })
  @IsOptional() @IsString() @Length(1, 200)
  paymentMethodId?: string;

  @ApiPropertyOptional({ example: 'stripe' })
  @IsOptional() @IsString() @Length(1, 50)
  provider?: string;
}
