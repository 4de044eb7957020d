import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ENTRIES_PAGE_MAX } from '@app/ledger';

export class CreateAccountDto {
  @ApiProperty({ description: 'name of the merchant token that owns the account', example: 'merchant-3f2a9c1d' })
  @IsString() @Length(1, 200)
  ownerTokenName: string;

  @ApiProperty({ description: 'lower-case ISO 4217 code of money (xxx, xts, metals and unassigned codes are 422 account_currency_not_supported); Pix payouts move brl only', example: 'brl' })
  @IsString() @Matches(/^[a-z]{3}$/, { message: 'currency must be a lower-case ISO 4217 code such as "brl"' })
  currency: string;
}

export class CreditAccountDto {
  @ApiProperty({ description: 'integer minor units (cents)', example: 100000 })
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  amountCents: number;

  @ApiProperty({ description: 'your reference for this funding; a second credit with it never adds money twice', example: 'wire-2026-12-02-001' })
  @IsString() @Length(1, 200)
  reference: string;
}

export class EntriesQueryDto {
  @ApiPropertyOptional({ description: 'the nextCursor of the previous page' })
  @IsOptional() @Matches(/^\d{1,18}$/, { message: 'after must be the nextCursor of a previous page' })
  after?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: ENTRIES_PAGE_MAX, default: 50 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(ENTRIES_PAGE_MAX)
  limit?: number;
}

export class ConfirmCreditDto {
  @ApiProperty({ description: 'why you agree, in words a colleague will understand later', example: 'matches the wire in the bank statement' })
  @IsString() @Length(3, 2000, { message: 'reason must be 3 to 2000 characters' })
  reason: string;
}
