import type { MerchantEvent } from '../event-types.js';

/** An events row as pg returns it. */
export interface EventRow {
  id: string;
  type: string;
  merchant_id: string;
  object_version: number;
  object: Record<string, unknown>;
  created_at: Date;
}

/** The one shape of an event, for a delivery's body and the feed alike. */
export function toMerchantEvent(row: EventRow): MerchantEvent {
  return {
    id: row.id,
    type: row.type as MerchantEvent['type'],
    createdAt: row.created_at.toISOString(),
    merchantId: row.merchant_id,
    objectVersion: row.object_version,
    data: { object: row.object },
  };
}
