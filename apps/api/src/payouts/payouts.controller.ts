import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import type { ListPage, RawQuery } from '@app/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, Roles, idempotencyScope, type Actor } from '@app/auth';
import { InboundIdempotencyService } from '@app/charges';
import { PAYOUT_STATUSES, PayoutList, PayoutsService, type PayoutSummary, type PayoutView } from '@app/payouts';
import type { PayoutRequestDetailView } from '@app/ledger';
import { ListPageQuery, StatusQuery } from '../lists/list-query.docs.js';
import { PayoutListDto } from '../lists/list-views.dto.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';
import { CreatePayoutDto } from './create-payout.dto.js';
import { ConfirmCreditDto } from '../accounts/account.dto.js';
import { PayoutRequestDetailDto, PayoutRequestViewDto, PayoutViewDto } from './payout-view.dto.js';

/** Inbound Idempotency-Keys of this route live in their own scope: one key on two routes never collides. */
const PAYOUT_KEY_SCOPE = 'POST /accounts/:id/payouts';

@ApiTags('payouts')
@ApiBearerAuth()
@Roles('merchant')
@Controller()
export class PayoutsController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly idempotency: InboundIdempotencyService,
    private readonly list: PayoutList,
  ) {}

  @Get('accounts/:id/payouts')
  @ApiOkResponse({ type: PayoutListDto, description: 'the account\'s payouts, newest first; another merchant\'s account is not found' })
  @StatusQuery(PAYOUT_STATUSES, 'in_review')
  @ListPageQuery()
  @ApiErrors({ 400: ['invalid_list_status', 'invalid_list_filter', 'invalid_list_cursor', 'invalid_list_limit'], 404: 'account_not_found' })
  index(@Param('id', ParseUUIDPipe) accountId: string, @Query() query: RawQuery, @CurrentActor() actor: Actor): Promise<ListPage<PayoutSummary>> {
    return this.list.list(accountId, query, actor);
  }

  @Post('accounts/:id/payouts')
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      "replays the first response for the same key, account and body (another body is 422); the payout is named by it, so a retry whose first try committed but never stored its response is that payout, never a second Pix; an admin's payout request is named by it too, so the same key never asks twice",
  })
  @ApiCreatedResponse({ type: PayoutViewDto, description: 'the payout after its first provider call' })
  @ApiAcceptedResponse({
    type: PayoutRequestViewDto,
    description: 'an admin (not the owning merchant) at or above REVIEW_FOUR_EYES_AMOUNT_CENTS: nothing is reserved or sent until another admin (another person) confirms',
  })
  @ApiErrors({ 400: 'invalid_pix_key', 404: 'account_not_found', 409: 'idempotency_key_in_flight', 422: ['insufficient_balance', 'payout_currency_unsupported', 'idempotency_key_reused', 'ledger_reference_reused'] })
  async create(
    @Param('id', ParseUUIDPipe) accountId: string,
    @Body() body: CreatePayoutDto,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: FastifyReply,
    @Headers('idempotency-key') key?: string,
  ): Promise<unknown> {
    const create = () => this.payouts.create(accountId, { amountCents: body.amountCents, pixKey: body.pixKey, pixKeyType: body.pixKeyType, description: body.description ?? null }, actor, key);
    // An admin's large payout only waits for a second person: 202, nothing reserved.
    const run = async () => {
      const { view, existing } = await create();
      return { status: 'request' in view ? 202 : 201, body: view, replayed: existing };
    };
    if (key === undefined) return run().then(({ status, body: view }) => (res.status(status), view));
    if (key.length === 0 || key.length > 255) throw new BadRequestException('Idempotency-Key must be 1 to 255 characters');
    // The account is part of the request: the same key and body for another account is another request.
    const stored = await this.idempotency.run(`${idempotencyScope(actor)} ${PAYOUT_KEY_SCOPE}`, key, { accountId, ...body }, run);
    res.status(stored.status);
    if (stored.replayed) res.header('Idempotent-Replayed', 'true');
    return stored.body;
  }

  @Get('accounts/:id/payouts/requests')
  @Roles('admin')
  @ApiOkResponse({ type: [PayoutRequestDetailDto], description: "the account's payout requests, newest first (at most 200): what each would send, the Pix key included" })
  @ApiErrors({ 404: 'account_not_found' })
  requests(@Param('id', ParseUUIDPipe) accountId: string, @CurrentActor() actor: Actor): Promise<PayoutRequestDetailView[]> {
    return this.payouts.requests(accountId, actor);
  }

  @Get('accounts/:id/payouts/requests/:requestId')
  @Roles('admin')
  @ApiOkResponse({ type: PayoutRequestDetailDto, description: 'what the confirming admin would send: payee (Pix key), amount and description' })
  @ApiErrors({ 404: ['account_not_found', 'payout_request_not_found'] })
  request(@Param('id', ParseUUIDPipe) accountId: string, @Param('requestId', ParseUUIDPipe) requestId: string, @CurrentActor() actor: Actor): Promise<PayoutRequestDetailView> {
    return this.payouts.request(accountId, requestId, actor);
  }

  @Post('accounts/:id/payouts/requests/:requestId/confirm')
  @Roles('admin')
  @HttpCode(201)
  @ApiCreatedResponse({ type: PayoutViewDto, description: 'the second admin: the asked payout is reserved and sent now, once' })
  @ApiErrors({
    403: 'payout_self_confirmation',
    404: ['account_not_found', 'payout_request_not_found'],
    409: 'payout_request_confirmed',
    422: ['insufficient_balance', 'account_owes', 'payout_currency_unsupported'],
  })
  confirm(
    @Param('id', ParseUUIDPipe) accountId: string,
    @Param('requestId', ParseUUIDPipe) requestId: string,
    @Body() body: ConfirmCreditDto,
    @CurrentActor() actor: Actor,
  ): Promise<PayoutView> {
    return this.payouts.confirm(accountId, requestId, actor, body.reason);
  }

  @Get('payouts/:id')
  @ApiOkResponse({ type: PayoutViewDto, description: 'the payout, for polling; 403 unless the caller owns its account' })
  @ApiErrors({ 404: 'payout_not_found' })
  get(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<PayoutView> {
    return this.payouts.view(id, actor);
  }
}
