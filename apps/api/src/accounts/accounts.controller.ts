import { BadRequestException, Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import type { ListPage, RawQuery } from '@app/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, Roles, type Actor } from '@app/auth';
import { InboundIdempotencyService } from '@app/charges';
import { AccountsService, type AccountView, type BalanceView, type CreditView, type EntriesPage } from '@app/ledger';
import { ConfirmCreditDto, CreateAccountDto, CreditAccountDto, EntriesQueryDto } from './account.dto.js';
import { AccountViewDoc, BalanceViewDoc, CreditRequestViewDoc, CreditViewDoc, EntriesPageDoc } from './account.views.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';
import { ListPageQuery } from '../lists/list-query.docs.js';
import { AccountListDto } from '../lists/list-views.dto.js';

/** Credits keep their Idempotency-Keys apart from charges': one key space per kind of request. */
const CREDIT_SCOPE = 'ledger-credits';

@ApiTags('accounts')
@ApiBearerAuth()
@Roles('merchant')
@Controller('accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly idempotency: InboundIdempotencyService,
  ) {}

  @Post()
  @ApiErrors({ 422: ['owner_token_unknown', 'account_currency_not_supported'] })
  @Roles('admin')
  @ApiCreatedResponse({ type: AccountViewDoc })
  create(@Body() body: CreateAccountDto, @CurrentActor() actor: Actor): Promise<AccountView> {
    return this.accounts.create(body, actor);
  }

  @Get()
  @ListPageQuery()
  @ApiErrors({ 400: ['invalid_list_filter', 'invalid_list_cursor', 'invalid_list_limit'] })
  @ApiOkResponse({ type: AccountListDto, description: 'the merchant\'s accounts, newest first' })
  index(@Query() query: RawQuery, @CurrentActor() actor: Actor): Promise<ListPage<AccountView>> {
    return this.accounts.list(query, actor);
  }

  @Get(':id')
  @ApiErrors({ 404: 'account_not_found' })
  @ApiOkResponse({ type: AccountViewDoc })
  get(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<AccountView> {
    return this.accounts.view(id, actor);
  }

  @Get(':id/balance')
  @ApiErrors({ 404: 'account_not_found' })
  @ApiOkResponse({ type: BalanceViewDoc })
  balance(@Param('id', ParseUUIDPipe) id: string, @CurrentActor() actor: Actor): Promise<BalanceView> {
    return this.accounts.balance(id, actor);
  }

  @Get(':id/entries')
  @ApiErrors({ 400: 'invalid_cursor', 404: 'account_not_found' })
  @ApiOkResponse({ type: EntriesPageDoc })
  entries(@Param('id', ParseUUIDPipe) id: string, @Query() query: EntriesQueryDto, @CurrentActor() actor: Actor): Promise<EntriesPage> {
    return this.accounts.entries(id, actor, query);
  }

  @Post(':id/credits')
  @ApiErrors({ 404: 'account_not_found', 409: 'idempotency_key_in_flight', 422: ['ledger_reference_reused', 'idempotency_key_reused'] })
  @Roles('admin')
  @ApiHeader({ name: 'Idempotency-Key', required: true, description: 'same key and body replays the first response; other body → 422' })
  @ApiCreatedResponse({ type: CreditViewDoc })
  @ApiAcceptedResponse({ type: CreditRequestViewDoc, description: `at or above REVIEW_FOUR_EYES_AMOUNT_CENTS: nothing moves until another admin confirms` })
  async credit(
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: CreditAccountDto,
    @CurrentActor() actor: Actor,
    @Res({ passthrough: true }) res: FastifyReply,
    @Headers('idempotency-key') key?: string,
  ): Promise<unknown> {
    if (key === undefined || key.length === 0 || key.length > 255) throw new BadRequestException('Idempotency-Key header is required (1 to 255 characters) to add money');
    // The account is part of the request: the same key and body sent to another account is another request (422).
    const stored = await this.idempotency.run(`${CREDIT_SCOPE}:${actor.name}`, key, { accountId: id, ...body }, async () => {
      const view = await this.accounts.credit(id, body, actor);
      // A credit at or above the four-eyes amount only waits for a second admin: 202, nothing moved.
      if ('request' in view) return { status: 202, body: view };
      return { status: view.replayed ? 200 : 201, body: view };
    });
    res.status(stored.status);
    if (stored.replayed) res.header('Idempotent-Replayed', 'true');
    return stored.body;
  }

  @Post(':id/credits/:requestId/confirm')
  @ApiErrors({ 403: 'credit_self_confirmation', 404: ['account_not_found', 'credit_request_not_found'], 409: 'credit_request_confirmed' })
  @Roles('admin')
  @HttpCode(201)
  @ApiCreatedResponse({ type: CreditViewDoc, description: 'the second admin: the asked credit is written now, once' })
  confirmCredit(
    @Param('id', ParseUUIDPipe) id: string,
    @Param('requestId', ParseUUIDPipe) requestId: string,
    @Body() body: ConfirmCreditDto,
    @CurrentActor() actor: Actor,
  ): Promise<CreditView> {
    return this.accounts.confirmCredit(id, requestId, actor, body.reason);
  }
}
