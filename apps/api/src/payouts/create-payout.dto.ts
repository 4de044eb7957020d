import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { PIX_KEY_TYPES, type PixKeyType } from '@app/payouts';

export class CreatePayoutDto {
  @ApiProperty({ description: 'integer minor units (centavos), at most the available balance', example: 1000 })
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  amountCents: number;

  @ApiProperty({ description: "the payee's Pix key, in the shape of its type", example: 'payee@example.com.br' })
  @IsString() @Length(1, 77)
  pixKey: string;

  @ApiProperty({ enum: PIX_KEY_TYPES, example: 'email' })
  @IsIn(PIX_KEY_TYPES as PixKeyType[], { message: `pixKeyType must be one of ${PIX_KEY_TYPES.join(', ')}` })
  pixKeyType: PixKeyType;

  @ApiPropertyOptional({ description: "shown on the payer's statement (infoPagador, 140 characters at most)", example: 'June commissions' })
  @IsOptional() @IsString() @Length(1, 140)
  description?: string;
}
