import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { ListDivergencesQuery } from '../reconciliation/reconciliation.dto.js';
import { IsCalendarDay } from '../edge/is-calendar-day.js';

export class ChargeLookupQueryDto {
  @ApiProperty({ description: 'a charge id, order id, customer id, or provider reference (payment intent / provider charge id)', example: 'order-1042' })
  @IsString() @Length(1, 200)
  query: string;
}

export class CalendarQuery {
  @ApiPropertyOptional({ description: 'default: the first provider with a statement', example: 'stripe' })
  @IsOptional() @IsString() @Length(1, 50)
  provider?: string;

  @ApiPropertyOptional({ description: 'the last day shown (default: yesterday in RECONCILIATION_TZ)', example: '2026-12-01' })
  @IsOptional() @IsCalendarDay({ message: 'to must be a calendar date written YYYY-MM-DD' })
  to?: string;

  @ApiPropertyOptional({ default: 30, minimum: 1, maximum: 92 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(92)
  days?: number;
}

export class DivergencesExportQuery extends OmitType(ListDivergencesQuery, ['cursor', 'limit'] as const) {}

export class HoursQuery {
  @ApiPropertyOptional({ description: 'how many hours back (default 24 for time to certainty, 48 for the queue)', minimum: 1, maximum: 168 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(168)
  hours?: number;
}

export class NightsQuery {
  @ApiPropertyOptional({ default: 30, minimum: 1, maximum: 92 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(92)
  days?: number;
}
