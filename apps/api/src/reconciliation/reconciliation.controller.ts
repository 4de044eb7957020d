import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles, type Actor } from '@app/auth';
import { ReconciliationQueries, ReconciliationRunsService, type DivergenceView, type OpenDaysView, type RunView } from '@app/reconciliation';
import { AcknowledgeDivergenceDto, CreateRunDto, ListDivergencesQuery, ListRunsQuery } from './reconciliation.dto.js';
import { DivergencePageDoc, DivergenceViewDoc, OpenDaysDoc, RunAcceptedView, RunViewDoc } from './reconciliation.view-classes.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';

@ApiTags('reconciliation')
@ApiBearerAuth()
@Roles('admin')
@Controller('reconciliation')
export class ReconciliationController {
  constructor(
    private readonly runs: ReconciliationRunsService,
    private readonly queries: ReconciliationQueries,
  ) {}

  @Post('runs')
  @ApiErrors({ 400: ['invalid_reconciliation_day', 'statement_unsupported', 'unknown_provider'], 409: 'reconciliation_run_running', 422: 'run_day_not_closed' })
  @HttpCode(202)
  @ApiAcceptedResponse({ type: RunAcceptedView, description: 'started; 409 with the running run id if the day is already running' })
  createRun(@Body() body: CreateRunDto, @CurrentActor() actor: Actor): Promise<{ id: string; status: 'running' }> {
    return this.runs.request({ provider: body.provider, day: body.date, source: body.source, requestedBy: actor.name });
  }

  @Get('runs')
  @ApiOkResponse({ type: [RunViewDoc] })
  listRuns(@Query() query: ListRunsQuery): Promise<RunView[]> {
    return this.queries.runs(query);
  }

  @Get('runs/:id')
  @ApiErrors({ 404: 'reconciliation_run_not_found' })
  @ApiOkResponse({ type: RunViewDoc })
  getRun(@Param('id', ParseUUIDPipe) id: string): Promise<RunView> {
    return this.queries.run(id);
  }

  @Get('open-days')
  @ApiOkResponse({ type: [OpenDaysDoc], description: 'per provider: the days of the catch-up window not yet reconciled' })
  openDays(): Promise<OpenDaysView[]> {
    return this.queries.openDays();
  }

  @Get('divergences')
  @ApiErrors({ 400: 'invalid_cursor' })
  @ApiOkResponse({ type: DivergencePageDoc })
  listDivergences(@Query() query: ListDivergencesQuery): Promise<{ items: DivergenceView[]; nextCursor: string | null }> {
    return this.queries.divergences({ ...query, limit: query.limit ?? 50 });
  }

  @Post('divergences/:id/ack')
  @ApiErrors({ 404: 'divergence_not_found' })
  @HttpCode(200)
  @ApiOkResponse({ type: DivergenceViewDoc })
  acknowledge(@Param('id', ParseUUIDPipe) id: string, @Body() body: AcknowledgeDivergenceDto, @CurrentActor() actor: Actor): Promise<DivergenceView> {
    return this.queries.acknowledge(id, body.note, actor.name);
  }
}
