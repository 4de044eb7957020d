import { hostname } from 'node:os';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { eventDeliveriesTotal, eventDeliveryLagSeconds } from '@app/observability';
import { EndpointSigningSecrets } from '../endpoint-signing-secrets.js';
import { deliveryVerdict, nextTryDelayMs } from '../rules/delivery-schedule.js';
import { checkWebhookUrl } from '../webhook-url.guard.js';
import { DeliveryStore, type ClaimedDelivery } from './delivery.store.js';
import { SettleBatcher } from './settle.batcher.js';
import { toMerchantEvent } from './event.payload.js';
import { webhookSignature } from './webhook-signature.js';
import { postWebhook, type WebhookAnswer } from './webhook.request.js';

const SWEEP_MS = 1000;
/**
 * Wake-ups within this window share one claim, and tries that finish within the other share one settling
 * statement: at a few hundred events a second each statement takes a batch, not one, for a few milliseconds of lag.
 */
const COALESCE_MS = 20;
const SETTLE_WINDOW_MS = 10;
/** Who this process is in a lease. */
const LEASE_OWNER = `${hostname()}:${process.pid}`;

/**
 * The worker's deliverer: claims due deliveries from PostgreSQL, posts each signed event to its endpoint and
 * records what came back. PostgreSQL's NOTIFY (sent at the event's commit) only wakes it sooner; a sweep every
 * second does the rest, so a lost notification, a dropped connection or a Redis flush delays nothing for long and
 * loses nothing. At most WEBHOOK_DELIVERY_CONCURRENCY requests in flight here, WEBHOOK_ENDPOINT_CONCURRENCY per
 * endpoint across all workers (the claim counts the leases).
 */
@Injectable()
export class EventDeliverer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventDeliverer.name);
  private readonly store: DeliveryStore;
  private readonly settles: SettleBatcher;
  private readonly inFlight = new Set<Promise<void>>();
  private listener: pg.Client | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private pumping = false;
  private again = false;
  private stopped = false;
  private soon: NodeJS.Timeout | null = null;

  constructor(
    @InjectDataSource() db: DataSource,
    private readonly config: AppConfig,
    private readonly secrets: EndpointSigningSecrets,
  ) {
    this.store = new DeliveryStore(db, LEASE_OWNER);
    this.settles = new SettleBatcher(this.store, SETTLE_WINDOW_MS, config.WEBHOOK_DELIVERY_CONCURRENCY);
  }

  onApplicationBootstrap(): void {
    this.sweep = setInterval(() => void this.pump(), SWEEP_MS);
    void this.listen();
    void this.pump();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.sweep) clearInterval(this.sweep);
    if (this.soon) clearTimeout(this.soon);
    await this.listener?.end().catch(() => undefined);
    // Requests under way finish and are recorded; anything else waits for the next worker's claim.
    await Promise.all(this.inFlight);
  }

  /** One connection that only listens; on any error it is replaced, and the sweep covers the gap. */
  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.config.DATABASE_URL, application_name: 'charge-once-event-wakeup' });
    client.on('notification', () => this.pumpSoon());
    client.on('error', () => {
      if (this.listener === client) this.listener = null;
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), SWEEP_MS).unref();
    });
    try {
      await client.connect();
      await client.query('LISTEN charge_once_deliveries');
      this.listener = client;
    } catch {
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), SWEEP_MS).unref();
    }
  }

  private pumpSoon(): void {
    if (this.soon || this.stopped) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.pump();
    }, COALESCE_MS);
  }

  /** Claims as many due deliveries as there is room for, and starts them; runs again while there may be more. */
  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        const room = this.config.WEBHOOK_DELIVERY_CONCURRENCY - this.inFlight.size;
        if (room <= 0 || this.stopped) break;
        // Twice the longest a request may take, and a second to record it: a live worker's lease never runs out under it.
        const claimed = await this.store.claim(room, this.config.WEBHOOK_ENDPOINT_CONCURRENCY, 2 * this.config.WEBHOOK_TIMEOUT_MS + 1000);
        for (const delivery of claimed) this.start(delivery);
        if (claimed.length === room) this.again = true;
      } while (this.again);
    } catch (error) {
      // PostgreSQL away (a restart): the sweep asks again in a second.
      this.logger.warn({ err: error }, 'could not claim webhook deliveries');
    } finally {
      this.pumping = false;
    }
  }

  private start(delivery: ClaimedDelivery): void {
    const run = this.deliver(delivery)
      .catch((error: unknown) => this.logger.error({ err: error, deliveryId: delivery.id, eventId: delivery.event_id }, 'webhook delivery failed to record; its lease will run out and it is sent again'))
      .finally(() => {
        this.inFlight.delete(run);
        // Room for a batch again: claim (more may have come due while every slot was busy).
        if (this.inFlight.size <= this.config.WEBHOOK_DELIVERY_CONCURRENCY / 2) this.pumpSoon();
      });
    this.inFlight.add(run);
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const startedAt = new Date();
    const answer = await this.post(d);
    const verdict = deliveryVerdict(answer.httpStatus);
    const outcome =
      verdict === 'delivered'
        ? ({ state: 'delivered' } as const)
        : ((delay: number | null) => (delay === null ? ({ state: 'abandoned' } as const) : ({ state: 'pending', retryInMs: delay } as const)))(
            nextTryDelayMs(d.attempts, Date.now() - d.created_at.getTime(), this.config.WEBHOOK_RETRY_SCHEDULE_MS, this.config.WEBHOOK_GIVE_UP_AFTER_MS),
          );
    // Failing first: a 410 disables the endpoint before this row is released, so the next claim takes none of its rows.
    const disabled = verdict === 'delivered' ? null : await this.store.markFailing(d.endpoint_id, verdict === 'gone', this.config.WEBHOOK_GIVE_UP_AFTER_MS);
    const held = await this.settles.settle({ delivery: d, tried: { startedAt, durationMs: answer.durationMs, httpStatus: answer.httpStatus, error: answer.error, excerpt: answer.excerpt }, outcome });
    eventDeliveriesTotal.inc({ outcome: verdict === 'delivered' ? 'delivered' : answer.httpStatus === null ? 'no_answer' : `http_${Math.floor(answer.httpStatus / 100)}xx` });
    if (verdict === 'delivered') {
      eventDeliveryLagSeconds.observe((Date.now() - d.event_created_at.getTime()) / 1000);
      if (d.failing_since) await this.store.markHealthy(d.endpoint_id);
      return;
    }
    const context = { deliveryId: d.id, eventId: d.event_id, endpointId: d.endpoint_id, merchantId: d.merchant_id, attempt: d.attempts, httpStatus: answer.httpStatus, error: answer.error };
    if (disabled) this.logger.warn({ ...context, disabledReason: disabled }, verdict === 'gone' ? 'webhook endpoint answered 410 Gone: disabled' : 'webhook endpoint failing for too long: disabled');
    else if (!held) this.logger.warn(context, 'webhook delivery outlived its lease; another worker sends it again');
  }

  /** The URL checked again (DNS may have moved it inside our network since), then the signed POST. */
  private async post(d: ClaimedDelivery): Promise<WebhookAnswer> {
    let target: { url: URL; addresses: string[] };
    try {
      target = await checkWebhookUrl(d.url, this.config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true');
    } catch (error) {
      return { httpStatus: null, durationMs: 0, error: error instanceof Error ? error.message : 'url refused', excerpt: null };
    }
    const body = JSON.stringify(toMerchantEvent({ ...d, id: d.event_id, created_at: d.event_created_at }));
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'charge-once-webhooks/1',
      'webhook-id': d.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignature(d.event_id, timestamp, body, this.secrets.signingSecretsOf(d)),
    };
    return postWebhook(target.url, target.addresses[0], headers, body, this.config.WEBHOOK_TIMEOUT_MS);
  }
}
