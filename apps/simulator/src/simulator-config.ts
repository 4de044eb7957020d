import { InvalidControlInput, optionalNumber, optionalString, requireRecord } from './control-input.js';

export interface WebhookSettings {
  /** Where events are POSTed; null sends nothing. */
  url: string | null;
  secret: string;
  /** Wait before delivering each batch of events. */
  delayMs: number;
  /** Extra copies of every event (same event id), sent after the batch. */
  duplicates: number;
  /** Deliver each batch in reverse order (e.g. `succeeded` before `created`). */
  reorder: boolean;
  /** Probability of silently losing each delivery. */
  dropRate: number;
}

export interface SimulatorConfig {
  /** Search only sees intents older than this; the list endpoint never lags. */
  searchLagMs: number;
  /** How long a hang fault holds a connection before destroying it, if the client has not left first. */
  hangMs: number;
  /** Time every create spends executing, with its key in flight; makes concurrent same-key 409s reproducible. */
  createLatencyMs: number;
  /** Time every query (retrieve, list, search) spends before it is answered. */
  queryLatencyMs: number;
  /** Customers whose every charge is declined. */
  declineCustomers: string[];
  /** How long a statement report run stays `pending` before its file is ready. */
  reportDelayMs: number;
  /** A report file stops sending after this many lines and hangs (a provider dying mid-file); null: never. */
  reportStallAfterLines: number | null;
  /**
   * The report type's `data_available_end` (unix seconds): a report is only ready up to here, as Stripe's data of a
   * day arrives hours after it ends. null: no lag (a week past now, so every day up to now is covered, its late hour too).
   */
  reportDataAvailableEnd: number | null;
  webhook: WebhookSettings;
  /** Asaas's list by filter only sees payments older than this; a retrieve by id never lags. */
  asaasListLagMs: number;
  /** Days Asaas's calendar runs ahead of the real one: a PENDING boleto or Pix past its due date reads OVERDUE. */
  asaasClockOffsetDays: number;
  /** New Asaas refunds stay PENDING (a Pix refund waiting on the bank) until the control API settles them. */
  asaasRefundsPending: boolean;
  /** Days after a refund turns DONE that its extrato entry is dated: Asaas may book the money a day late [U]. */
  asaasRefundBookingDelayDays: number;
  /** Pins new refunds' `dateCreated` (Asaas writes seconds, so two refunds in one second share it); null: the clock. */
  asaasRefundDateCreated: string | null;
  /** Asaas webhooks: the same knobs, with `secret` sent as the static `asaas-access-token`. */
  asaasWebhook: WebhookSettings;
}

export type SimulatorConfigPatch = Partial<Omit<SimulatorConfig, 'webhook' | 'asaasWebhook'>> & {
  webhook?: Partial<WebhookSettings>;
  asaasWebhook?: Partial<WebhookSettings>;
};

export const DEFAULT_WEBHOOK_SECRET = 'whsec_dev_simulator';
export const DEFAULT_ASAAS_WEBHOOK_TOKEN = 'asaas-dev-simulator-token';

export const DEFAULT_CONFIG: SimulatorConfig = {
  searchLagMs: 0,
  hangMs: 60_000,
  createLatencyMs: 0,
  queryLatencyMs: 0,
  declineCustomers: [],
  reportDelayMs: 0,
  reportStallAfterLines: null,
  reportDataAvailableEnd: null,
  webhook: { url: null, secret: DEFAULT_WEBHOOK_SECRET, delayMs: 0, duplicates: 0, reorder: false, dropRate: 0 },
  asaasListLagMs: 0,
  asaasClockOffsetDays: 0,
  asaasRefundsPending: false,
  asaasRefundBookingDelayDays: 0,
  asaasRefundDateCreated: null,
  asaasWebhook: { url: null, secret: DEFAULT_ASAAS_WEBHOOK_TOKEN, delayMs: 0, duplicates: 0, reorder: false, dropRate: 0 },
};

/** Validates a patch (from a test or the control API) and returns the merged configuration. */
export function applyConfigPatch(config: SimulatorConfig, patch: unknown): SimulatorConfig {
  const input = requireRecord(patch, 'config');
  return {
    searchLagMs: optionalNumber(input.searchLagMs, 'searchLagMs') ?? config.searchLagMs,
    hangMs: optionalNumber(input.hangMs, 'hangMs') ?? config.hangMs,
    createLatencyMs: optionalNumber(input.createLatencyMs, 'createLatencyMs') ?? config.createLatencyMs,
    queryLatencyMs: optionalNumber(input.queryLatencyMs, 'queryLatencyMs') ?? config.queryLatencyMs,
    declineCustomers: readCustomerList(input.declineCustomers) ?? config.declineCustomers,
    reportDelayMs: optionalNumber(input.reportDelayMs, 'reportDelayMs') ?? config.reportDelayMs,
    reportStallAfterLines:
      input.reportStallAfterLines === null ? null : (optionalNumber(input.reportStallAfterLines, 'reportStallAfterLines') ?? config.reportStallAfterLines),
    reportDataAvailableEnd:
      input.reportDataAvailableEnd === null ? null : (optionalNumber(input.reportDataAvailableEnd, 'reportDataAvailableEnd') ?? config.reportDataAvailableEnd),
    webhook: readWebhookSettings(input.webhook, 'webhook', config.webhook),
    asaasListLagMs: optionalNumber(input.asaasListLagMs, 'asaasListLagMs') ?? config.asaasListLagMs,
    asaasClockOffsetDays: optionalNumber(input.asaasClockOffsetDays, 'asaasClockOffsetDays', 0, 3650) ?? config.asaasClockOffsetDays,
    asaasRefundsPending: readBoolean(input.asaasRefundsPending, 'asaasRefundsPending') ?? config.asaasRefundsPending,
    asaasRefundBookingDelayDays: optionalNumber(input.asaasRefundBookingDelayDays, 'asaasRefundBookingDelayDays', 0, 30) ?? config.asaasRefundBookingDelayDays,
    asaasRefundDateCreated: readWallClock(input.asaasRefundDateCreated, config.asaasRefundDateCreated),
    asaasWebhook: readWebhookSettings(input.asaasWebhook, 'asaasWebhook', config.asaasWebhook),
  };
}

function readWebhookSettings(value: unknown, name: string, current: WebhookSettings): WebhookSettings {
  const webhook = value === undefined ? {} : requireRecord(value, `config.${name}`);
  const url = readUrl(webhook, name);
  return {
    url: url === undefined ? current.url : url,
    secret: optionalString(webhook.secret, `${name}.secret`) ?? current.secret,
    delayMs: optionalNumber(webhook.delayMs, `${name}.delayMs`) ?? current.delayMs,
    duplicates: optionalNumber(webhook.duplicates, `${name}.duplicates`, 0, 100) ?? current.duplicates,
    reorder: readBoolean(webhook.reorder, `${name}.reorder`) ?? current.reorder,
    dropRate: optionalNumber(webhook.dropRate, `${name}.dropRate`, 0, 1) ?? current.dropRate,
  };
}

function readCustomerList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new InvalidControlInput('declineCustomers must be an array of customer ids');
  }
  return [...value];
}

/** `url: null` switches webhooks off, so it is told apart from an absent key. */
function readUrl(webhook: Record<string, unknown>, name: string): string | null | undefined {
  if (webhook.url === undefined) return undefined;
  if (webhook.url === null || webhook.url === '') return null;
  const url = optionalString(webhook.url, `${name}.url`);
  if (url && !URL.canParse(url)) throw new InvalidControlInput(`${name}.url is not a URL: ${url}`);
  return url;
}

function readBoolean(value: unknown, what: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new InvalidControlInput(`${what} must be a boolean`);
  return value;
}

function readWallClock(value: unknown, current: string | null): string | null {
  if (value === undefined) return current;
  if (value === null) return null;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) throw new InvalidControlInput('asaasRefundDateCreated must be YYYY-MM-DD HH:MM:SS or null');
  return value;
}
