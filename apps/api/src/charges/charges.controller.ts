import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, Roles, idempotencyScope, merchantScope, type Actor } from '@app/auth';
import { CHARGE_STATUSES, ChargeList, ChargesService, InboundIdempotencyService, type ChargeSummary, type ChargeView } from '@app/charges';
import type { ListPage, RawQuery } from '@app/common';
import { UntilFinal, WAIT_FOR_FINAL_MAX_MS } from '@app/events';
import { refundSummariesOf } from '@app/refunds';
import { clientGone, isSettledForCheckout } from './charge-final.wait.js';
import { ChargeViewDto } from './charge-view.dto.js';
import { CreateChargeDto } from './create-charge.dto.js';
import { WaitForFinal } from './wait-for-final.param.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';
import { ListPageQuery, StatusQuery } from '../lists/list-query.docs.js';
import { ChargeListDto } from '../lists/list-views.dto.js';

@ApiTags('charges')
@ApiBearerAuth()
@Roles('merchant')
@Controller('charges')
export class ChargesController {
  constructor(
    private readonly charges: ChargesService,
    private readonly idempotency: InboundIdempotencyService,
    private readonly untilFinal: UntilFinal,
    private readonly list: ChargeList,
  ) {}

  @Get()
  @ApiOkResponse({ type: ChargeListDto, description: 'the merchant\'s charges, newest first (keyset by created_at and id: no skip, no repeat while new ones arrive)' })
  @StatusQuery(CHARGE_STATUSES, 'processing')
  @ApiQuery({ name: 'orderId', required: false, type: String, example: 'order-1042' })
  @ApiQuery({ name: 'customerId', required: false, type: String, example: 'cus_829' })
  @ApiQuery({ name: 'createdFrom', required: false, type: String, example: '2026-12-06', description: 'created at or after this date (UTC midnight) or ISO-8601 instant' })
  @ApiQuery({ name: 'createdTo', required: false, type: String, example: '2026-12-07T12:00:00Z', description: 'created before this date or instant' })
  @ListPageQuery()
  @ApiErrors({ 400: ['invalid_list_status', 'invalid_list_filter', 'invalid_list_date', 'invalid_list_cursor', 'invalid_list_limit'], 403: 'merchant_required' })
  index(@Query() query: RawQuery, @CurrentActor() actor: Actor): Promise<ListPage<ChargeSummary>> {
    return this.list.list(query, actor);
  }

  @Post()
  @ApiCreatedResponse({ type: ChargeViewDto, description: 'the charge; a replayed Idempotency-Key answers the first response with Idempotent-Replayed: true' })
  @ApiErrors({ 400: ['invalid_charge_field', 'unknown_provider'], 403: 'merchant_required', 409: ['idempotency_key_in_flight', 'charge_exists'], 422: ['idempotency_key_reused', 'currency_not_supported', 'amount_below_minimum', 'amount_not_representable'] })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'replays the first response for the same key and body' })
  async create(
    @Body() body: CreateChargeDto,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: FastifyReply,
    @Headers('idempotency-key') key?: string,
  ): Promise<unknown> {
    if (key === undefined) return this.charges.create(body, actor).then((view) => (res.status(201), view));
    if (key.length === 0 || key.length > 255) throw new BadRequestException('Idempotency-Key must be 1 to 255 characters');
    // Keys are the merchant's: two tokens of one merchant share them, two merchants never collide.
    const stored = await this.idempotency.run(idempotencyScope(actor), key, body, async () => ({
      status: 201,
      body: await this.charges.create(body, actor),
    }));
    res.status(stored.status);
    if (stored.replayed) res.header('Idempotent-Replayed', 'true');
    return stored.body;
  }

  @Post(':id/submit')
  @ApiOkResponse({ type: ChargeViewDto, description: 'at most one provider call; safe to repeat, concurrently' })
  @ApiErrors({ 404: 'charge_not_found', 409: ['open_attempt_exists', 'illegal_transition', 'charge_already_captured'], 422: ['currency_not_supported', 'amount_below_minimum', 'amount_not_representable'], 503: 'previous_attempt_unverified' })
  @HttpCode(200)
  submit(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<ChargeView> {
    return this.charges.submit(id, actor, refundSummariesOf);
  }

  @Get(':id')
  @ApiOkResponse({ type: ChargeViewDto, description: 'with waitForFinal: once the charge is no longer created or processing, or at the timeout with the current view' })
  @ApiQuery({ name: 'waitForFinal', required: false, type: Number, description: `wait up to this many ms (0 to ${WAIT_FOR_FINAL_MAX_MS}) for the outcome, woken by its commit` })
  @ApiErrors({ 404: 'charge_not_found', 429: 'long_poll_capacity' })
  get(
    @Param('id', ParseUUIDPipe) id: string,
    @WaitForFinal() waitMs: number,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<ChargeView> {
    // Where the charge and refund views meet: the charge view reads our refunds in its own snapshot.
    const read = () => this.charges.view(id, merchantScope(actor), refundSummariesOf);
    if (waitMs === 0) return read();
    return this.untilFinal.read(`charge:${id}`, waitMs, read, isSettledForCheckout, clientGone(res));
  }
}
