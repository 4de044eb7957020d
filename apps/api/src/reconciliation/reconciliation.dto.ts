import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { DIVERGENCE_KINDS } from '@app/reconciliation';
import { IsCalendarDay } from '../edge/is-calendar-day.js';

export class CreateRunDto {
  @ApiProperty({ example: 'stripe' })
  @IsString() @Length(1, 50)
  provider: string;

  @ApiProperty({ description: 'the day in RECONCILIATION_TZ; one that has ended there (yesterday or earlier), else 422 run_day_not_closed', example: '2026-12-01' })
  @IsCalendarDay({ message: 'date must be a calendar date written YYYY-MM-DD' })
  date: string;

  @ApiPropertyOptional({ enum: ['api', 'report'], description: 'api paging (default) or the provider report file' })
  @IsOptional() @IsIn(['api', 'report'])
  source?: 'api' | 'report';
}

export class ListRunsQuery {
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 50)
  provider?: string;

  @ApiPropertyOptional({ example: '2026-11-01' }) @IsOptional() @IsCalendarDay({ message: 'from must be a calendar date written YYYY-MM-DD' })
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-30' }) @IsOptional() @IsCalendarDay({ message: 'to must be a calendar date written YYYY-MM-DD' })
  to?: string;
}

export class ListDivergencesQuery {
  @ApiPropertyOptional() @IsOptional() @IsUUID()
  runId?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 50)
  provider?: string;

  @ApiPropertyOptional({ enum: DIVERGENCE_KINDS }) @IsOptional() @IsIn(DIVERGENCE_KINDS)
  kind?: string;

  @ApiPropertyOptional({ enum: ['open', 'acknowledged'] }) @IsOptional() @IsIn(['open', 'acknowledged'])
  status?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 500)
  cursor?: string;

  @ApiPropertyOptional({ default: 50, maximum: 500 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500)
  limit?: number;
}

export class AcknowledgeDivergenceDto {
  @ApiProperty({ description: 'why this divergence needs nothing more (required)', example: 'refunded by hand, ticket FIN-12' })
  @IsString() @Length(1, 2000)
  note: string;
}

export class ApproveRefundProposalDto {
  @ApiPropertyOptional({ example: 'customer confirmed the double charge' })
  @IsOptional() @IsString() @Length(1, 2000)
  note?: string;
}

export class RejectRefundProposalDto {
  @ApiProperty({ description: 'why the money stays (required)', example: 'the customer paid twice on purpose, ticket FIN-31' })
  @IsString() @Length(1, 2000)
  note: string;
}

export class ListRefundProposalsQuery {
  @ApiPropertyOptional({ enum: ['proposed', 'awaiting_second', 'rejected', 'executed'] })
  @IsOptional() @IsIn(['proposed', 'awaiting_second', 'rejected', 'executed'])
  state?: 'proposed' | 'awaiting_second' | 'rejected' | 'executed';
}
