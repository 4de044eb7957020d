import { ProviderHttpClient } from '@app/gateways';
import { createPrng } from './prng.js';
import type { WebhookSettings } from './simulator-config.js';
import type { SimulatorStats } from './simulator-stats.js';

export interface WebhookDelivery {
  eventId: string;
  type: string;
  intentId: string;
  /** `dropped` lost on purpose; `not_sent` no URL set or simulator closing; `failed` no 2xx or no answer. */
  outcome: 'delivered' | 'failed' | 'dropped' | 'not_sent';
  httpStatus: number | null;
  forged: boolean;
  /** 0 for the first delivery of an event, 1.. for the duplicates. */
  copy: number;
}

const DROP_SEED = 0x5eed;
const MAX_KEPT_DELIVERIES = 10_000;

/** How one provider's events are named and authenticated on the wire. */
export interface WebhookFormat<E> {
  describe(event: E): { eventId: string; type: string; intentId: string };
  /** Headers for one delivery; `forged` authenticates with something the receiver must refuse. */
  headers(body: string, secret: string, forged: boolean): Record<string, string>;
}

/**
 * Delivers signed events like Stripe: at least once (with configurable duplicates), in no promised order
 * (reorder), sometimes never (drop). Batches are delivered one after another so a test sees a
 * reproducible order. Delivery failures are recorded, never thrown: a broken receiver must not take the
 * simulator down.
 */
export class WebhookSender<E> {
  private readonly http = new ProviderHttpClient({ connectTimeoutMs: 2_000, readTimeoutMs: 10_000 });
  private readonly abort = new AbortController();
  /** Delay timers and how to cut each short when the simulator closes. */
  private readonly waiting = new Map<NodeJS.Timeout, () => void>();
  private readonly pending = new Set<Promise<void>>();
  private queue: Promise<void> = Promise.resolve();
  private drawDrop = createPrng(DROP_SEED);
  private log: WebhookDelivery[] = [];

  constructor(
    private readonly settings: () => WebhookSettings,
    private readonly stats: SimulatorStats,
    private readonly format: WebhookFormat<E>,
  ) {}

  /** Schedules a batch (the events one API request caused) with every configured knob applied. */
  emit(events: E[]): void {
    const settings = this.settings();
    if (!settings.url || events.length === 0 || this.abort.signal.aborted) return;
    const ordered = settings.reorder ? [...events].reverse() : events;
    const scheduled = this.delay(settings.delayMs).then(() => {
      // Never rejects in practice; the catch keeps one bad batch from stalling every later one.
      this.queue = this.queue.then(() => this.deliverBatch(ordered)).catch(() => undefined);
      return this.queue;
    });
    this.pending.add(scheduled);
    void scheduled.finally(() => this.pending.delete(scheduled));
  }

  /** Sends one event now, outside the knobs; `forged` signs it with a secret the receiver does not know. */
  async sendNow(event: E, forged = false): Promise<WebhookDelivery> {
    return this.deliver(event, { forged, copy: 0 });
  }

  deliveries(): WebhookDelivery[] {
    return [...this.log];
  }

  /** Waits until every scheduled batch has been delivered (or dropped). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  reset(): void {
    this.drawDrop = createPrng(DROP_SEED);
    this.log = [];
  }

  close(): void {
    this.abort.abort();
    for (const [timer, release] of this.waiting) {
      clearTimeout(timer);
      release();
    }
    this.waiting.clear();
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(timer);
        resolve();
      }, ms);
      this.waiting.set(timer, resolve);
    });
  }

  private async deliverBatch(events: E[]): Promise<void> {
    const { duplicates, dropRate } = this.settings();
    for (let copy = 0; copy <= duplicates; copy += 1) {
      for (const event of events) {
        if (copy > 0) this.stats.countWebhook('duplicated');
        if (this.drawDrop() < dropRate) {
          this.stats.countWebhook('dropped');
          this.record(event, { outcome: 'dropped', httpStatus: null, forged: false, copy });
          continue;
        }
        await this.deliver(event, { forged: false, copy });
      }
    }
  }

  private async deliver(event: E, how: { forged: boolean; copy: number }): Promise<WebhookDelivery> {
    const settings = this.settings();
    if (!settings.url || this.abort.signal.aborted) {
      return this.record(event, { ...how, outcome: 'not_sent', httpStatus: null });
    }
    const body = JSON.stringify(event, null, 2);
    this.stats.countWebhook(how.forged ? 'forged' : 'sent');
    const result = await this.http.send({
      method: 'POST',
      url: settings.url,
      headers: this.format.headers(body, settings.secret, how.forged),
      body,
      signal: this.abort.signal,
    });
    const delivered = result.kind === 'response' && result.status >= 200 && result.status < 300;
    this.stats.countWebhook(delivered ? 'delivered' : 'failed');
    const httpStatus = result.kind === 'response' ? result.status : null;
    return this.record(event, { ...how, outcome: delivered ? 'delivered' : 'failed', httpStatus });
  }

  private record(event: E, fields: Omit<WebhookDelivery, 'eventId' | 'type' | 'intentId'>): WebhookDelivery {
    const delivery = { ...this.format.describe(event), ...fields };
    this.log.push(delivery);
    // Trimmed in slices, not one shift per delivery: shifting a long array is a copy each time.
    if (this.log.length > MAX_KEPT_DELIVERIES * 1.1) this.log = this.log.slice(-MAX_KEPT_DELIVERIES);
    return delivery;
  }
}
