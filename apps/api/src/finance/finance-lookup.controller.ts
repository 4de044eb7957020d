import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Roles } from '@app/auth';
import { ReconciliationCalendarQuery } from '@app/reconciliation';
import { AttemptTrendsQuery, ChargeLookupQuery, ReviewQueueTrendQuery, type ChargeLookupHit, type ReviewQueueTrend, type TimeToCertainty, type UnknownAgeBucket } from '@app/review';
import { ChargeLookupQueryDto, HoursQuery, NightsQuery } from './finance.dto.js';
import { ChargeLookupPageDoc, DivergencesPerNightDoc, ReviewQueueTrendDoc, TimeToCertaintyDoc, UnknownAttemptsTrendDoc } from './finance.view-classes.js';

/** What finance staff read while working the queue: any merchant's charge, and the trends. Reviewers and admins. */
@ApiTags('finance')
@ApiBearerAuth()
@Roles('reviewer')
@Controller('finance')
export class FinanceLookupController {
  constructor(
    private readonly lookup: ChargeLookupQuery,
    private readonly attempts: AttemptTrendsQuery,
    private readonly queue: ReviewQueueTrendQuery,
    private readonly calendar: ReconciliationCalendarQuery,
  ) {}

  @Get('charges')
  @ApiOkResponse({ type: ChargeLookupPageDoc, description: 'charges whose id, order id, customer id or provider reference is the query, across merchants' })
  charges(@Query() query: ChargeLookupQueryDto): Promise<{ items: ChargeLookupHit[]; truncated: boolean }> {
    return this.lookup.find(query.query.trim());
  }

  @Get('trends/unknown-attempts')
  @ApiOkResponse({ type: UnknownAttemptsTrendDoc, description: 'attempts unknown now, by how long they have been unknown' })
  async unknownAttempts(): Promise<{ buckets: UnknownAgeBucket[] }> {
    return { buckets: await this.attempts.unknownByAge() };
  }

  @Get('trends/time-to-certainty')
  @ApiOkResponse({ type: TimeToCertaintyDoc })
  timeToCertainty(@Query() query: HoursQuery): Promise<TimeToCertainty> {
    return this.attempts.timeToCertainty(query.hours ?? 24);
  }

  @Get('trends/review-queue')
  @ApiOkResponse({ type: ReviewQueueTrendDoc })
  reviewQueue(@Query() query: HoursQuery): Promise<ReviewQueueTrend> {
    return this.queue.lastHours(query.hours ?? 48);
  }

  @Get('trends/divergences')
  @ApiOkResponse({ type: DivergencesPerNightDoc, description: 'divergences each night found, all providers, oldest first' })
  divergences(@Query() query: NightsQuery): Promise<{ days: number[]; divergences: number[] }> {
    return this.calendar.divergencesPerNight(query.days ?? 30);
  }
}
