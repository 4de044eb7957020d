import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RefundProposalEntity, type RefundProposalState } from '@app/database';
import { RefundProposalDecidedError, RefundProposalNotFoundError } from './reconciliation.errors.js';
import { refundProposalView, type RefundProposalView } from './reconciliation.views.js';

/**
 * A person decides whether money the provider holds without a success of ours goes back. Deciding is a
 * conditional update from `proposed`, so two admins clicking at once produce one decision. Executing an
 * approved proposal belongs to the refunds module, which moves it to `executed`.
 */
@Injectable()
export class RefundProposalsService {
  private readonly logger = new Logger(RefundProposalsService.name);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(state?: RefundProposalState): Promise<RefundProposalView[]> {
    const rows = await this.db.getRepository(RefundProposalEntity).find({ where: state ? { state } : {}, order: { createdAt: 'ASC' }, take: 500 });
    return rows.map(refundProposalView);
  }

  approve(id: string, actor: string, note: string | null): Promise<RefundProposalView> {
    return this.decide(id, 'approved', actor, note);
  }

  reject(id: string, actor: string, note: string | null): Promise<RefundProposalView> {
    return this.decide(id, 'rejected', actor, note);
  }

  private async decide(id: string, to: 'approved' | 'rejected', actor: string, note: string | null): Promise<RefundProposalView> {
    const [rows] = await this.db.query<[unknown[], number]>(
      `UPDATE refund_proposals SET state = $2, decided_by = $3, decided_at = now(), decision_note = $4, updated_at = now()
        WHERE id = $1 AND state = 'proposed' RETURNING id`,
      [id, to, actor, note],
    );
    const proposal = await this.db.getRepository(RefundProposalEntity).findOneBy({ id });
    if (!proposal) throw new RefundProposalNotFoundError(id);
    if (rows.length === 0) throw new RefundProposalDecidedError(id, proposal.state);
    this.logger.log({ refundProposalId: id, providerChargeId: proposal.providerChargeId, state: to, actor }, 'refund proposal decided');
    return refundProposalView(proposal);
  }
}
