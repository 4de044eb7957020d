import { Module } from '@nestjs/common';
import { AttemptsModule } from '@app/attempts';
import { RefundsModule } from '@app/refunds';
import { ReviewClaimsService } from './review-claims.service.js';
import { ReviewDecisionService } from './review-decision.service.js';
import { ReviewAcknowledgeDecision } from './review-acknowledge.decision.js';
import { ReviewFourEyesDecision } from './review-four-eyes.decision.js';
import { ReviewMoneyDecision } from './review-money.decision.js';
import { ReviewGapDecision } from './review-gap.decision.js';
import { LateCaptureFollowUp } from './late-capture.follow-up.js';
import { ReviewProviderCheck } from './review-provider-check.service.js';
import { ReviewQueueGauges } from './review-queue.gauges.js';
import { ChargeLookupQuery } from './charge-lookup.query.js';
import { ReviewQueueTrendQuery } from './review-queue.trend.js';
import { AttemptTrendsQuery } from './attempt-trends.query.js';
import { ReviewQueueService } from './review-queue.service.js';

/** The queue finance staff work: reading, claiming, deciding with proof. Imported by the api. */
@Module({
  imports: [AttemptsModule, RefundsModule],
  providers: [ReviewQueueService, ReviewClaimsService, ReviewDecisionService, ReviewMoneyDecision, ReviewFourEyesDecision, ReviewAcknowledgeDecision, ReviewGapDecision, LateCaptureFollowUp, ReviewProviderCheck, ReviewQueueGauges, ChargeLookupQuery, ReviewQueueTrendQuery, AttemptTrendsQuery],
  exports: [ChargeLookupQuery, ReviewQueueTrendQuery, AttemptTrendsQuery, ReviewQueueService, ReviewClaimsService, ReviewDecisionService],
})
export class ReviewQueueModule {}
