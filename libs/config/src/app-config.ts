import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ProviderSettings } from './provider-settings.js';

/** The key the local simulator accepts; any other key is taken for a real provider account. */
export const SIMULATOR_STRIPE_SECRET_KEY = 'sk_test_simulator';
/** The webhook secret the local simulator signs with: public, so never acceptable with a real key. */
export const SIMULATOR_STRIPE_WEBHOOK_SECRET = 'whsec_dev_simulator';
/** The client secret the local Efí simulator accepts; any other secret is taken for a real Efí account. */
export const SIMULATOR_EFI_CLIENT_SECRET = 'efi_simulator_secret';

/**
 * Every setting the service reads, validated once at boot. Defaults work on a developer machine;
 * timings are configurable so tests and demos can compress hours into seconds.
 */
export class AppConfig extends ProviderSettings {
  @IsString() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/charge_once';

  @IsString() @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * A streaming standby of DATABASE_URL for the heavy read-only screens and exports only (trends, the lookup, the
   * reconciliation calendar, CSV exports); each read falls back to the primary past the lag it tolerates. No money
   * decision reads it. Unset: those reads go to the primary, as every other read does.
   */
  @IsOptional() @IsString() @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_REPLICA_URL must be a postgres:// URL' })
  DATABASE_REPLICA_URL?: string;

  /**
   * A Sentinel-managed Redis instead of REDIS_URL: the sentinels as `host:port,…` and the name they monitor the
   * primary by; every client asks them for the primary and follows a failover.
   */
  @IsOptional() @IsString()
  REDIS_SENTINELS?: string;

  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9._-]{1,100}$/, { message: 'REDIS_SENTINEL_NAME may contain letters, digits, ".", "_" and "-"' })
  REDIS_SENTINEL_NAME?: string;

  /** The sentinels' own password (`requirepass` in sentinel.conf), when they have one. */
  @IsOptional() @IsString()
  REDIS_SENTINEL_PASSWORD?: string;

  /** The data nodes' password with REDIS_SENTINELS or REDIS_CLUSTER_NODES (a single Redis takes it in REDIS_URL). */
  @IsOptional() @IsString()
  REDIS_PASSWORD?: string;

  /** A Redis Cluster instead of REDIS_URL: some of its nodes as `host:port,…` (the rest are discovered); QUEUE_PREFIX must then be a {hash tag}. */
  @IsOptional() @IsString()
  REDIS_CLUSTER_NODES?: string;

  /** Redis key prefix of every queue; lets several deployments (or test files) share one Redis. */
  // Braces make the prefix a Redis Cluster hash tag ({charge-once}): every key of a queue then lives in one slot.
  @IsString() @Matches(/^(\{[A-Za-z0-9:_-]+\}|[A-Za-z0-9:_-]+)$/, { message: 'QUEUE_PREFIX may contain letters, digits, ":", "_" and "-", or be such a name in {braces} (a Redis Cluster hash tag)' })
  QUEUE_PREFIX = 'charge-once';

  @Type(() => Number) @IsInt() @Min(0)
  PORT = 3000;

  /** The worker's own HTTP port, serving only /health and /metrics (0 picks a free port). */
  @Type(() => Number) @IsInt() @Min(0)
  WORKER_HTTP_PORT = 3001;

  /**
   * The api's own metrics port, serving only /metrics (0 picks a free port), bound to METRICS_HOST. Without a
   * METRICS_TOKEN it is the only place the api's figures are served: its public port answers /metrics with 404.
   */
  @Type(() => Number) @IsInt() @Min(0) @Max(65535)
  METRICS_PORT = 9464;

  /** Where METRICS_PORT listens: loopback by default, so the figures stay on the machine unless you say otherwise. */
  @IsString() @Length(1, 255)
  METRICS_HOST = '127.0.0.1';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** `json` (one object per line, for machines) or `pretty` (pino-pretty, for a terminal; npm start picks it under a TTY). */
  @IsIn(['json', 'pretty'])
  LOG_FORMAT = 'json';

  /** Requests one API token may make per API_RATE_LIMIT_WINDOW_MS, across every api process (leased from Redis 1 % at a time); past it, 429. */
  @Type(() => Number) @IsInt() @Min(1)
  API_RATE_LIMIT = 6000;

  @Type(() => Number) @IsInt() @Min(1000)
  API_RATE_LIMIT_WINDOW_MS = 60_000;

  /**
   * Failed authentications (missing, unknown or revoked token) one client address may make per
   * AUTH_FAILURE_WINDOW_MS, across every api process (Redis); past it, 429 with Retry-After.
   */
  @Type(() => Number) @IsInt() @Min(1)
  AUTH_FAILURE_LIMIT = 20;

  @Type(() => Number) @IsInt() @Min(1000)
  AUTH_FAILURE_WINDOW_MS = 60_000;

  /** Requests one client address may make to the webhook routes per API_RATE_LIMIT_WINDOW_MS (providers retry in bursts). */
  @Type(() => Number) @IsInt() @Min(1)
  WEBHOOK_RATE_LIMIT = 6000;

  /**
   * The api's `trustProxy`, read as Express's `trust proxy` was: which proxies in front of the api may name the
   * client's address (X-Forwarded-For), e.g. `loopback`, `10.0.0.0/8` or a hop count. Unset: the socket's address, so behind a proxy every caller would share one.
   */
  @IsOptional() @IsString() @Length(1, 500)
  TRUST_PROXY?: string;

  /**
   * When set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (Prometheus' `authorization` setting),
   * and the api serves it on its own port too; unset, the api serves it only on METRICS_PORT.
   */
  @IsOptional() @IsString() @Length(16, 255, { message: 'METRICS_TOKEN must be 16 to 255 characters' })
  METRICS_TOKEN?: string;

  /**
   * Key that encrypts merchants' webhook endpoint secrets at rest: 32 bytes, base64 (`openssl rand -base64 32`).
   * Unset, endpoints cannot be created or delivered to (the launcher writes one to `.data/`).
   */
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'EVENTS_ENCRYPTION_KEY must be 32 bytes in base64 (openssl rand -base64 32)' })
  EVENTS_ENCRYPTION_KEY?: string;

  /**
   * `true` lets webhook endpoints be plain `http` and resolve to loopback, private or link-local addresses: for
   * the simulator mode, compose and tests only. Otherwise an endpoint must be `https` to a public address, checked
   * at creation and again at every delivery (DNS can change).
   */
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true' | 'false' = 'false';

  /** Waits between tries of a webhook delivery that got no 2xx (comma-separated ms, the last repeats): README, Merchant events. */
  @IsArray() @ArrayNotEmpty() @IsInt({ each: true }) @Min(1, { each: true })
  WEBHOOK_RETRY_SCHEDULE_MS: number[] = [5_000, 60_000, 600_000, 3_600_000, 21_600_000, 43_200_000];

  /** A delivery still failing this long after its event is abandoned; an endpoint failing this long is disabled. */
  @Type(() => Number) @IsInt() @Min(1000)
  WEBHOOK_GIVE_UP_AFTER_MS = 3 * 24 * 3_600_000;

  /** A receiver must answer 2xx within this, or the try counts as failed. */
  @Type(() => Number) @IsInt() @Min(100)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** Deliveries one worker has in flight at once, and at most per endpoint across all workers. */
  @Type(() => Number) @IsInt() @Min(1)
  WEBHOOK_DELIVERY_CONCURRENCY = 64;

  @Type(() => Number) @IsInt() @Min(1)
  WEBHOOK_ENDPOINT_CONCURRENCY = 16;

  /**
   * Long polls (`GET /charges/:id?waitForFinal=`) one api process holds at once; past it, 429 with Retry-After.
   * Each holds a socket and, when its charge's event commits, one read.
   */
  @Type(() => Number) @IsInt() @Min(1)
  LONG_POLL_MAX_WAITERS = 1000;

  /** Largest request body accepted (JSON and form), in bytes; provider events can be large, so not Express's 100 kB. */
  @Type(() => Number) @IsInt() @Min(1024)
  MAX_BODY_BYTES = 1_048_576;

  /**
   * `role:token` or `role:holder:token` entries, comma separated (`reviewer:alice:<token>`: alice is the person;
   * `merchant:acme:<token>`: acme is the merchant). Made the api's env tokens at boot: one that leaves the setting
   * stops working at the next boot.
   */
  @IsOptional() @IsString() @Matches(/^\s*((merchant|reviewer|admin):([A-Za-z0-9_.@-]{1,64}:)?[^,:\s]{16,})(\s*,\s*(merchant|reviewer|admin):([A-Za-z0-9_.@-]{1,64}:)?[^,:\s]{16,})*\s*$/, {
    message: 'API_TOKENS must be comma-separated role:token or role:holder:token entries (role merchant|reviewer|admin, token at least 16 chars)',
  })
  API_TOKENS?: string;

  @Type(() => Number) @IsInt() @Min(1)
  PROVIDER_CONNECT_TIMEOUT_MS = 3000;

  @Type(() => Number) @IsInt() @Min(1)
  PROVIDER_READ_TIMEOUT_MS = 15_000;

  @Type(() => Number) @IsInt() @Min(1)
  SUBMIT_LEASE_MS = 60_000;

  /** Waits before each resend after a connect failure or 429 (env: comma-separated ms, parsed at boot). */
  @IsArray() @ArrayNotEmpty() @IsInt({ each: true }) @Min(1, { each: true })
  SUBMIT_RETRY_BACKOFF_MS: number[] = [1000, 5000, 30_000, 120_000];

  /**
   * Waits before each resolution query. The first is short: a found charge needs no grace, so a lost response
   * to a created charge is resolved in seconds. Together the waits must outlast CONSISTENT_LOOKUP_GRACE_MS.
   */
  @IsArray() @ArrayNotEmpty() @IsInt({ each: true }) @Min(1, { each: true })
  RESOLUTION_BACKOFF_MS: number[] = [2000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000];

  @Type(() => Number) @IsInt() @Min(1)
  RESOLUTION_MAX_TRIES = 10;

  /**
   * How long after a send ended even a strongly consistent "not found" is not trusted: the provider may still
   * be executing a request we stopped waiting for (Stripe can hold one longer than our read timeout). Counted
   * with the database's clock from the end of the last send.
   */
  @Type(() => Number) @IsInt() @Min(0)
  CONSISTENT_LOOKUP_GRACE_MS = 300_000;

  /**
   * How long a clean re-check of an attempt failed as not found vouches for it: a submit after that queries the
   * provider again before a new attempt opens (a late create may have landed, its webhook lost, since the check).
   */
  @Type(() => Number) @IsInt() @Min(0)
  RECHECK_VALID_MS = 60_000;

  @Type(() => Number) @IsInt() @Min(100)
  SWEEPER_INTERVAL_MS = 30_000;

  /** How long a completed inbound Idempotency-Key replays its response before it is forgotten. */
  @Type(() => Number) @IsInt() @Min(60_000)
  INBOUND_IDEMPOTENCY_TTL_MS = 24 * 3600_000;

  /** A reviewer's claim on a review item lapses after this, so an abandoned item returns to the queue. */
  @Type(() => Number) @IsInt() @Min(1000)
  REVIEW_CLAIM_TTL_MS = 15 * 60_000;

  /** A succeeded/failed decision on a charge of at least this many minor units needs a second reviewer. */
  @Type(() => Number) @IsInt() @Min(0)
  REVIEW_FOUR_EYES_AMOUNT_CENTS = 100_000;

  /** When the worker reconciles the previous day (cron, seconds field optional), in RECONCILIATION_TZ; `off` disables it. */
  @IsString() @Matches(/^(off|\S+( \S+){4,5})$/, { message: 'RECONCILIATION_CRON must be a 5- or 6-field cron expression, or off' })
  RECONCILIATION_CRON = '0 2 * * *';

  /** The business's time zone: the calendar day a reconciliation run covers, and "today" for an Asaas due date. */
  @IsString() @Matches(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/, { message: 'RECONCILIATION_TZ must be an IANA time zone such as America/Sao_Paulo' })
  RECONCILIATION_TZ = 'America/Sao_Paulo';

  /**
   * How many days back each scheduled tick looks for a day with no succeeded run (a failed or missed night), and
   * reconciles them oldest first. Ticks more often than nightly (an hourly cron) retry a failed day sooner.
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(366)
  RECONCILIATION_CATCHUP_DAYS = 7;

  /**
   * Waits before a tick tries a failed day again, after its 1st, 2nd, ... failed scheduled run (the last repeats),
   * counted from when that run finished: a provider failing a day is not asked at every tick.
   */
  @IsArray() @ArrayNotEmpty() @IsInt({ each: true }) @Min(1, { each: true })
  RECONCILIATION_RETRY_BACKOFF_MS: number[] = [1_800_000, 3_600_000, 7_200_000, 14_400_000];

  /**
   * How often each worker asks again for days already tried and not reconciled (a failed day past its backoff, a day
   * waiting for the provider's data), between nightly ticks; 0 turns it off. Claimed in PostgreSQL like the nightly.
   */
  @Type(() => Number) @IsInt() @Min(0)
  RECONCILIATION_RETRY_INTERVAL_MS = 900_000;

  /**
   * How far before the catch-up window a tick looks for days never reconciled (each becomes one review item),
   * and never before the provider's first run or first successful attempt.
   */
  @Type(() => Number) @IsInt() @Min(1) @Max(3660)
  RECONCILIATION_GAP_LOOKBACK_DAYS = 90;

  /** Which statement the nightly job reads: `report` (the provider's file, for large days) or `api` (paging). */
  @IsIn(['api', 'report'])
  RECONCILIATION_SOURCE = 'report';

  /** A run's lease; renewed while it works, taken over by another worker once it has expired. */
  @Type(() => Number) @IsInt() @Min(1000)
  RECONCILIATION_LEASE_MS = 60_000;

  /**
   * A payouts provider's run also reads the sent Pix of this many days before its day, for their returns alone (a
   * payee's bank sends a Pix back days later, and the list is asked by send time); 0 reads the day's own only.
   */
  @Type(() => Number) @IsInt() @Min(0) @Max(90)
  RECONCILIATION_PIX_RETURNS_DAYS = 7;

  /** The statement is read this far past the day's end, so a charge sent just before midnight is not "missing". */
  @Type(() => Number) @IsInt() @Min(0)
  RECONCILIATION_MARGIN_MS = 3600_000;

  /** How often a requested provider report is polled until its file is ready, and how long to wait at most. */
  @Type(() => Number) @IsInt() @Min(10)
  RECONCILIATION_REPORT_POLL_MS = 5000;

  @Type(() => Number) @IsInt() @Min(1000)
  RECONCILIATION_REPORT_TIMEOUT_MS = 1_800_000;

  /** OpenTelemetry traces go here (OTLP over HTTP, `/v1/traces` appended). Unset: no tracing, its SDK never loaded. */
  @IsOptional() @IsString() @Matches(/^https?:\/\/\S+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s):// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The traces' `service.name`; by default `charge-once-api` or `charge-once-worker`, after the process. */
  @IsOptional() @IsString() @Length(1, 200)
  OTEL_SERVICE_NAME?: string;
}
