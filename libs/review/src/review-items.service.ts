import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { openReviewItem } from '@app/attempts';

/**
 * Opens the item a person must decide, with everything known about the attempt. The partial unique
 * index keeps it to one open item per attempt however many resolvers give up at once; a later finding
 * is appended to the open item.
 */
@Injectable()
export class ReviewItemsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Returns true when this call opened the item. Pass `em` to open it inside the caller's transaction. */
  async open(attemptId: string, reason: string, findings: Record<string, unknown>, em?: EntityManager): Promise<boolean> {
    if (em) return openReviewItem(em, attemptId, reason, findings);
    return this.db.transaction((tx) => openReviewItem(tx, attemptId, reason, findings));
  }
}
