import type { EventType } from './event-types.js';

export const DISABLED_REASONS = ['merchant', 'gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** The columns a view is made of: never a secret's ciphertext, so no read path carries one it does not need. */
export interface WebhookEndpointViewRow {
  id: string;
  merchant_id: string;
  url: string;
  description: string | null;
  event_types: EventType[] | null;
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
  /** previous_secret_expires_at while it is still in the future (the database's clock), else null. */
  secret_rotated_until: Date | null;
}

/** What a merchant sees of an endpoint. Never its secret: that is answered once, by create and rotate-secret. */
export interface WebhookEndpointView {
  id: string;
  object: 'webhook_endpoint';
  merchantId: string;
  url: string;
  description: string | null;
  /** null: every event type. */
  events: EventType[] | null;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  failingSince: string | null;
  /** Until when deliveries are also signed with the secret before the last rotation; null when none is valid. */
  secretRotatedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer of create and rotate-secret: the view and the plaintext secret, this once. */
export type WebhookEndpointWithSecret = WebhookEndpointView & { secret: string };

export function toWebhookEndpointView(row: WebhookEndpointViewRow): WebhookEndpointView {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    merchantId: row.merchant_id,
    url: row.url,
    description: row.description,
    events: row.event_types,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since?.toISOString() ?? null,
    secretRotatedUntil: row.secret_rotated_until?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
