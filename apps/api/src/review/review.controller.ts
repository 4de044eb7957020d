import { BadRequestException, Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles, type Actor } from '@app/auth';
import {
  ReviewClaimsService,
  ReviewDecisionService,
  ReviewQueueService,
  parseOlderThan,
  type ReviewAuditView,
  type ReviewEvidence,
  type ReviewItemView,
  type ReviewQueuePage,
} from '@app/review';
import { ReviewDecisionDto, ReviewReasonDto } from './review-decision.dto.js';
import { ReviewListQuery } from './review-list.query.js';
import { ReviewerDoc, ReviewAuditRowDoc, ReviewItemDetailDoc, ReviewItemViewDoc, ReviewQueuePageDoc } from './review.views.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';

/** The review queue for finance staff (DESIGN.md section 8). An admin may call it too, as one more reviewer. */
@ApiTags('review')
@ApiBearerAuth()
@Roles('reviewer')
@Controller('review')
export class ReviewController {
  constructor(
    private readonly queue: ReviewQueueService,
    private readonly claims: ReviewClaimsService,
    private readonly decisions: ReviewDecisionService,
  ) {}

  @Get('items')
  @ApiOkResponse({ type: ReviewQueuePageDoc, description: 'oldest first' })
  list(@Query() query: ReviewListQuery): Promise<ReviewQueuePage> {
    return this.queue.list({ ...query, olderThan: query.olderThan === undefined ? undefined : (parseOlderThan(query.olderThan) ?? badOlderThan()) });
  }

  @Get('me')
  @ApiOkResponse({ type: ReviewerDoc, description: 'who the token belongs to: the person audit rows and four-eyes record' })
  me(@CurrentActor() actor: Actor): { name: string; role: string } {
    return { name: actor.name, role: actor.role };
  }

  @Get('items/:id')
  @ApiErrors({ 404: 'review_item_not_found' })
  @ApiOkResponse({ type: ReviewItemDetailDoc, description: 'the item with its evidence, assembled now' })
  get(@Param('id', ParseUUIDPipe) id: string): Promise<ReviewItemView & { evidence: ReviewEvidence }> {
    return this.queue.getWithEvidence(id);
  }

  @Get('items/:id/audit')
  @ApiErrors({ 404: 'review_item_not_found' })
  @ApiOkResponse({ type: [ReviewAuditRowDoc], description: 'append-only, oldest first' })
  audit(@Param('id', ParseUUIDPipe) id: string): Promise<ReviewAuditView[]> {
    return this.queue.audit(id);
  }

  @Post('items/:id/claim')
  @ApiErrors({ 404: 'review_item_not_found', 409: ['review_claimed_by_another', 'review_state_conflict'] })
  @HttpCode(200)
  @ApiOkResponse({ type: ReviewItemViewDoc })
  claim(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<ReviewItemView> {
    return this.claims.claim(id, actor.name);
  }

  @Post('items/:id/release')
  @ApiErrors({ 404: 'review_item_not_found', 409: ['review_claim_required', 'review_state_conflict'] })
  @HttpCode(200)
  @ApiOkResponse({ type: ReviewItemViewDoc })
  release(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<ReviewItemView> {
    return this.claims.release(id, actor.name);
  }

  @Post('items/:id/decision')
  @ApiErrors({ 400: 'review_input_invalid', 404: 'review_item_not_found', 409: ['review_claim_required', 'review_state_conflict', 'review_action_not_allowed', 'review_attempt_settled', 'review_provider_evidence_refused', 'review_second_provider_charge'] })
  @HttpCode(200)
  @ApiOkResponse({ type: ReviewItemViewDoc, description: 'closed, or awaiting_second above the four-eyes threshold' })
  decide(@Param('id', ParseUUIDPipe) id: string, @Body() body: ReviewDecisionDto, @CurrentActor() actor: Actor): Promise<ReviewItemView> {
    return this.decisions.decide(id, actor.name, body);
  }

  @Post('items/:id/confirm')
  @ApiErrors({ 403: 'review_second_reviewer_required', 404: 'review_item_not_found', 409: ['review_state_conflict', 'review_attempt_settled', 'review_provider_evidence_refused'] })
  @HttpCode(200)
  @ApiOkResponse({ type: ReviewItemViewDoc })
  confirm(@Param('id', ParseUUIDPipe) id: string, @Body() body: ReviewReasonDto, @CurrentActor() actor: Actor): Promise<ReviewItemView> {
    return this.decisions.confirm(id, actor.name, body.reason);
  }

  @Post('items/:id/reject')
  @ApiErrors({ 403: 'review_second_reviewer_required', 404: 'review_item_not_found', 409: 'review_state_conflict' })
  @HttpCode(200)
  @ApiOkResponse({ type: ReviewItemViewDoc })
  reject(@Param('id', ParseUUIDPipe) id: string, @Body() body: ReviewReasonDto, @CurrentActor() actor: Actor): Promise<ReviewItemView> {
    return this.decisions.reject(id, actor.name, body.reason);
  }
}

function badOlderThan(): never {
  throw new BadRequestException('olderThan must be a duration such as 90s, 15m, 4h, 2d or an ISO-8601 instant');
}
