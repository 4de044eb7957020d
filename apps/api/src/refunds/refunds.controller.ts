import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { ListPage, RawQuery } from '@app/common';
import type { FastifyReply } from 'fastify';
import { CurrentActor, Roles, idempotencyScope, merchantScope, type Actor } from '@app/auth';
import { InboundIdempotencyService } from '@app/charges';
import { REFUND_STATUSES, RefundList, RefundsService, type RefundSummaryLine, type RefundView } from '@app/refunds';
import { ListPageQuery, StatusQuery } from '../lists/list-query.docs.js';
import { RefundListDto } from '../lists/list-views.dto.js';
import { CreateRefundDto } from './create-refund.dto.js';
import { RefundViewDto } from './refund-view.dto.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';

/** Inbound Idempotency-Keys of this route live in their own scope: one key on two routes never collides. */
const REFUND_KEY_SCOPE = 'POST /charges/:id/refunds';

@ApiTags('refunds')
@ApiBearerAuth()
@Roles('merchant')
@Controller()
export class RefundsController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly idempotency: InboundIdempotencyService,
    private readonly list: RefundList,
  ) {}

  @Get('refunds')
  @ApiOkResponse({ type: RefundListDto, description: 'the merchant\'s refunds, newest first' })
  @ApiQuery({ name: 'chargeId', required: false, type: String, format: 'uuid', description: 'only this charge\'s refunds (another merchant\'s charge lists none)' })
  @StatusQuery(REFUND_STATUSES, 'succeeded')
  @ListPageQuery()
  @ApiErrors({ 400: ['invalid_list_status', 'invalid_list_filter', 'invalid_list_cursor', 'invalid_list_limit'], 403: 'merchant_required' })
  index(@Query() query: RawQuery, @CurrentActor() actor: Actor): Promise<ListPage<RefundSummaryLine>> {
    return this.list.list(query, actor);
  }

  @Post('charges/:id/refunds')
  @ApiErrors({ 404: 'charge_not_found', 409: ['idempotency_key_in_flight', 'refund_proposal_executed'], 422: ['charge_not_refundable', 'refund_exceeds_refundable', 'idempotency_key_reused'] })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'replays the first response for the same key, charge and body' })
  @ApiCreatedResponse({ type: RefundViewDto, description: 'the refund, after its first provider call' })
  async create(
    @Param('id', ParseUUIDPipe) chargeId: string,
    @Body() body: CreateRefundDto,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: FastifyReply,
    @Headers('idempotency-key') key?: string,
  ): Promise<unknown> {
    const input = { chargeId, merchantId: merchantScope(actor), amountCents: body.amountCents, reason: body.reason ?? null };
    if (key === undefined) return this.refunds.create(input, actor.name).then(({ view }) => (res.status(201), view));
    if (key.length === 0 || key.length > 255) throw new BadRequestException('Idempotency-Key must be 1 to 255 characters');
    const scope = `${idempotencyScope(actor)} ${REFUND_KEY_SCOPE}`;
    // The charge is part of the request: the same key and body for another charge is another request. The key also
    // names the refund, so a run again (a takeover, a lost record) finds the first refund rather than making another.
    const run = async () => {
      const { view, existing } = await this.refunds.create(input, actor.name, { scope, key });
      return { status: 201, body: view, replayed: existing };
    };
    const stored = await this.idempotency.run(scope, key, { chargeId, ...body }, run);
    res.status(stored.status);
    if (stored.replayed) res.header('Idempotent-Replayed', 'true');
    return stored.body;
  }

  @Post('refunds/:id/submit')
  @ApiErrors({ 404: 'refund_not_found', 409: 'open_attempt_exists', 503: 'previous_refund_attempt_unverified' })
  @HttpCode(200)
  @ApiOkResponse({ type: RefundViewDto, description: 'sends the open attempt if due, or opens a new one after a failure' })
  submit(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<RefundView> {
    return this.refunds.submit(id, actor.name, merchantScope(actor));
  }

  @Get('refunds/:id')
  @ApiErrors({ 404: 'refund_not_found' })
  @ApiOkResponse({ type: RefundViewDto })
  get(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<RefundView> {
    return this.refunds.view(id, merchantScope(actor));
  }
}
