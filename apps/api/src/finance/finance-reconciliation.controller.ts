import { Controller, Get, Header, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Roles } from '@app/auth';
import { ReconciliationCalendarQuery, ReconciliationQueries, RefundProposalsExport, type CalendarDay, type DivergenceView } from '@app/reconciliation';
import { ListRefundProposalsQuery } from '../reconciliation/reconciliation.dto.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';
import { toCsv } from './csv.js';
import { DIVERGENCE_COLUMNS, REFUND_PROPOSAL_COLUMNS } from './finance.csv-columns.js';
import { CalendarQuery, DivergencesExportQuery } from './finance.dto.js';
import { CalendarDoc } from './finance.view-classes.js';

/** An export holds at most this many divergences (narrow it by run, kind or status). */
const EXPORT_LIMIT = 10_000;

/** The days reconciliation covered, and the exports finance works from. Admin, as the rest of reconciliation. */
@ApiTags('finance')
@ApiBearerAuth()
@Roles('admin')
@Controller('finance/reconciliation')
export class FinanceReconciliationController {
  constructor(
    private readonly calendar: ReconciliationCalendarQuery,
    private readonly queries: ReconciliationQueries,
    private readonly proposals: RefundProposalsExport,
  ) {}

  @Get('calendar')
  @ApiErrors({ 400: ['unknown_provider', 'invalid_reconciliation_day'] })
  @ApiOkResponse({ type: CalendarDoc, description: 'each day of one provider, newest first: its run\'s status, counts and duration, or missing' })
  async days(@Query() query: CalendarQuery): Promise<{ provider: string; providers: string[]; days: CalendarDay[] }> {
    const providers = this.calendar.providers();
    const shown = await this.calendar.days(query.provider ?? providers[0] ?? '', query.days ?? 30, query.to);
    return { ...shown, providers };
  }

  @Get('divergences.csv')
  @ApiErrors({ 404: 'reconciliation_run_not_found' })
  @ApiProduces('text/csv')
  @ApiOkResponse({ schema: { type: 'string' }, description: `the divergences in view as CSV (at most ${EXPORT_LIMIT}), money in integer minor units` })
  @Header('Content-Type', 'text/csv; charset=utf-8')
  async divergences(@Query() query: DivergencesExportQuery, @Res({ passthrough: true }) res: FastifyReply): Promise<string> {
    const run = query.runId ? await this.queries.run(query.runId) : null;
    const rows: DivergenceView[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.queries.divergences({ ...query, cursor, limit: 500 });
      rows.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && rows.length < EXPORT_LIMIT);
    const name = run ? ['divergences', run.provider, run.date] : ['divergences', query.provider, query.kind, query.status ?? 'all'];
    attachment(res, name);
    return toCsv(DIVERGENCE_COLUMNS, rows.slice(0, EXPORT_LIMIT));
  }

  @Get('refund-proposals.csv')
  @ApiProduces('text/csv')
  @ApiOkResponse({ schema: { type: 'string' }, description: `refund proposals as CSV, oldest first (at most ${EXPORT_LIMIT}), money in integer minor units` })
  @Header('Content-Type', 'text/csv; charset=utf-8')
  async refundProposals(@Query() query: ListRefundProposalsQuery, @Res({ passthrough: true }) res: FastifyReply): Promise<string> {
    attachment(res, ['refund-proposals', query.state ?? 'all']);
    return toCsv(REFUND_PROPOSAL_COLUMNS, await this.proposals.list(query.state, EXPORT_LIMIT));
  }
}

/** A file name from validated parts, kept to a safe alphabet all the same. */
function attachment(res: FastifyReply, parts: Array<string | undefined>): void {
  const name = parts.filter(Boolean).join('-').replace(/[^A-Za-z0-9._-]/g, '_');
  res.header('Content-Disposition', `attachment; filename="${name}.csv"`);
}
