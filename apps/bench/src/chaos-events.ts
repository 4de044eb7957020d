import type pg from 'pg';
import type { InvariantResult } from './chaos-invariants.js';
import { startEventReceiver, type EventReceiver } from './event-receiver.js';

export interface MerchantReceiver {
  token: string;
  receiver: EventReceiver;
  merchantId: string;
}

/** A merchant's receiver and its endpoint, registered through the api like a merchant would. */
export async function registerReceiver(base: string, token: string): Promise<MerchantReceiver> {
  const receiver = await startEventReceiver();
  const res = await fetch(`${base}/webhook-endpoints`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: receiver.url, description: 'chaos receiver' }),
  });
  if (res.status !== 201) throw new Error(`POST /webhook-endpoints answered ${res.status}: ${await res.text()}`);
  // The endpoint names its merchant, so the receiver's owner is what the api says, not inferred from charges.
  const endpoint = (await res.json()) as { secret: string; merchantId: string };
  receiver.trust(endpoint.secret);
  return { token, receiver, merchantId: endpoint.merchantId };
}

/** Waits (bounded) until no delivery of these merchants is still pending: the storm's faults may leave retries queued. */
export async function waitForDeliveries(db: pg.Pool, merchantIds: string[], timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let pending = -1;
  while (Date.now() < deadline) {
    const { rows } = await db
      .query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE merchant_id = ANY($1) AND state = 'pending'`, [merchantIds])
      .catch(() => [{ n: -1 }] as never);
    pending = rows[0]?.n ?? -1;
    if (pending === 0) return 0;
    await new Promise((r) => setTimeout(r, 500));
  }
  return pending;
}

/**
 * Issue 34's invariant, checked against the receivers' own records: every committed event of a merchant reached
 * that merchant's receiver at least once, always under one webhook-id (its event id), and never another's.
 */
export async function checkEventInvariants(db: pg.Pool, merchants: MerchantReceiver[]): Promise<InvariantResult[]> {
  const everyEventReceived: string[] = [];
  const oneWebhookId: string[] = [];
  const onlyOwnEvents: string[] = [];
  for (const m of merchants) {
    const { rows } = await db.query<{ id: string; type: string }>(`SELECT id, type FROM events WHERE merchant_id = $1 AND type <> 'ping'`, [m.merchantId]);
    for (const e of rows) if (!m.receiver.events.has(e.id)) everyEventReceived.push(`${m.merchantId}: ${e.type} ${e.id} committed, never received`);
    for (const [id, got] of m.receiver.events) {
      if (got.webhookIds.size !== 1 || !got.webhookIds.has(id)) oneWebhookId.push(`${id}: received under ${[...got.webhookIds].join(', ')}`);
      if (got.merchantId !== m.merchantId) onlyOwnEvents.push(`${id} of merchant ${got.merchantId} reached merchant ${m.merchantId}'s receiver`);
    }
  }
  return [
    { name: 'every committed event reached its merchant\'s receiver at least once', violations: everyEventReceived },
    { name: 'each event arrived under one webhook-id across its retries', violations: oneWebhookId },
    { name: 'no event reached another merchant\'s endpoint', violations: onlyOwnEvents },
  ];
}
