import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsIP, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { IsCalendarDay } from '../edge/is-calendar-day.js';

export class CreateChargeDto {
  @ApiProperty({ example: 'order-42' })
  @IsString() @Length(1, 200)
  orderId: string;

  @ApiProperty({ description: "integer minor units of the currency, as ISO 4217 counts them: cents for usd (4990 is $49.90), yen for jpy (500 is ¥500), thousandths for bhd (1250 is BHD 1.250); the provider's minimum and amount rules apply (422 amount_below_minimum, amount_not_representable)", example: 4990 })
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  amountCents: number;

  @ApiProperty({ description: 'lower-case ISO 4217 code of money the provider takes (stripe: its presentment currencies; asaas: brl); others are 422 currency_not_supported', example: 'brl' })
  @IsString() @Matches(/^[a-z]{3}$/, { message: 'currency must be a lower-case ISO 4217 code such as "usd"' })
  currency: string;

  @ApiProperty({ example: 'cus_123' })
  @IsString() @Length(1, 200)
  customerId: string;

  @ApiPropertyOptional({ example: 'pm_card_visa', description: 'stripe: the PaymentMethod (required); asaas CREDIT_CARD: the creditCardToken of a card tokenised by the caller (never a card number)' })
  @IsOptional() @IsString() @Length(1, 200)
  paymentMethodId?: string;

  @ApiPropertyOptional({ example: '203.0.113.7', description: "asaas CREDIT_CARD with a token: the IP the customer buys from (Asaas remoteIp), never the merchant's server" })
  @IsOptional() @IsIP(undefined, { message: 'customerIp must be an IPv4 or IPv6 address' })
  customerIp?: string;

  @ApiPropertyOptional({ example: 'stripe' })
  @IsOptional() @IsString() @Length(1, 50)
  provider?: string;

  @ApiPropertyOptional({ enum: ['PIX', 'BOLETO', 'CREDIT_CARD'], description: 'how the customer pays; required for provider asaas' })
  @IsOptional() @IsIn(['PIX', 'BOLETO', 'CREDIT_CARD'], { message: 'billingType must be one of PIX, BOLETO, CREDIT_CARD' })
  billingType?: string;

  @ApiPropertyOptional({ example: '2026-12-20', description: 'YYYY-MM-DD (asaas); defaults to today in RECONCILIATION_TZ' })
  @IsOptional() @IsCalendarDay({ message: 'dueDate must be a calendar date as YYYY-MM-DD' })
  dueDate?: string;
}
