import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles, type Actor } from '@app/auth';
import { RefundProposalsService, type RefundProposalView } from '@app/reconciliation';
import { ApproveRefundProposalDto, ListRefundProposalsQuery, RejectRefundProposalDto } from './reconciliation.dto.js';
import { RefundProposalViewDoc } from './reconciliation.view-classes.js';
import { ApiErrors } from '../openapi/api-errors.decorator.js';

@ApiTags('reconciliation')
@ApiBearerAuth()
@Roles('admin')
@Controller('reconciliation/refund-proposals')
export class RefundProposalsController {
  constructor(private readonly proposals: RefundProposalsService) {}

  @Get()
  @ApiOkResponse({ type: [RefundProposalViewDoc] })
  list(@Query() query: ListRefundProposalsQuery): Promise<RefundProposalView[]> {
    return this.proposals.list(query.state);
  }

  @Post(':id/approve')
  @ApiErrors({
    403: 'refund_proposal_self_approval',
    404: 'refund_proposal_not_found',
    409: ['refund_proposal_decided', 'refund_proposal_stale', 'provider_charge_already_refunded', 'refund_proposal_not_captured'],
    422: 'refund_exceeds_refundable',
    503: 'refund_proposal_unverified',
  })
  @HttpCode(200)
  @ApiOkResponse({ type: RefundProposalViewDoc, description: 'executes the proposal: its refund is created and sent (see refundId); 409 once decided' })
  approve(@Param('id', ParseUUIDPipe) id: string, @Body() body: ApproveRefundProposalDto, @CurrentActor() actor: Actor): Promise<RefundProposalView> {
    return this.proposals.approve(id, actor.name, body.note ?? null);
  }

  @Post(':id/reject')
  @ApiErrors({ 404: 'refund_proposal_not_found', 409: 'refund_proposal_decided' })
  @HttpCode(200)
  @ApiOkResponse({ type: RefundProposalViewDoc })
  reject(@Param('id', ParseUUIDPipe) id: string, @Body() body: RejectRefundProposalDto, @CurrentActor() actor: Actor): Promise<RefundProposalView> {
    return this.proposals.reject(id, actor.name, body.note);
  }
}
