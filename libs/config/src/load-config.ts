import { accessSync, constants } from 'node:fs';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CronTime } from 'cron';
import { parseDelayList } from './rules/delay-list.js';
import { redisSettingsProblems } from './rules/redis-topology.js';
import { AppConfig, SIMULATOR_EFI_CLIENT_SECRET, SIMULATOR_STRIPE_SECRET_KEY, SIMULATOR_STRIPE_WEBHOOK_SECRET } from './app-config.js';

// Settings with no default are not own properties of a fresh AppConfig, so they are named here.
const OPTIONAL_SETTINGS = [
  'DATABASE_REPLICA_URL',
  'API_TOKENS',
  'STRIPE_SECRET_KEY',
  'ASAAS_API_KEY',
  'ASAAS_WEBHOOK_TOKEN',
  'EFI_CLIENT_ID',
  'EFI_CLIENT_SECRET',
  'EFI_CERT_PATH',
  'EFI_CA_PATH',
  'EFI_PIX_KEY',
  'EFI_WEBHOOK_CA_PATH',
  'EFI_WEBHOOK_HMAC',
  'EVENTS_ENCRYPTION_KEY',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_NAME',
  'REDIS_SENTINEL_PASSWORD',
  'REDIS_PASSWORD',
  'REDIS_CLUSTER_NODES',
];

/** Lists of delays: read into `number[]` here, so a bad value stops the process at boot with the variable's name. */
const DELAY_LIST_SETTINGS = ['SUBMIT_RETRY_BACKOFF_MS', 'RESOLUTION_BACKOFF_MS', 'RECONCILIATION_RETRY_BACKOFF_MS', 'WEBHOOK_RETRY_SCHEDULE_MS'] as const;

export class ConfigError extends Error {
  readonly code = 'invalid_config';
}

/** Reads and validates the environment; one readable message naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const names = [...Object.keys(new AppConfig()), ...OPTIONAL_SETTINGS];
  const relevant: Record<string, string | number[]> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') relevant[name] = value;
  }
  const lines: string[] = [];
  for (const name of DELAY_LIST_SETTINGS) {
    const raw = relevant[name];
    if (typeof raw !== 'string') continue;
    const parsed = parseDelayList(raw);
    if ('problem' in parsed) lines.push(`  ${name}: ${parsed.problem}`);
    else relevant[name] = parsed.delays;
  }
  const config = plainToInstance(AppConfig, relevant, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false }).filter((e) => !lines.some((l) => l.startsWith(`  ${e.property}:`)));
  lines.push(...errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`));
  // Read from what the environment gave, not the config: REDIS_URL's default must not count as a choice.
  if (lines.length === 0) lines.push(...redisSettingsProblems(relevant));
  if (lines.length === 0) lines.push(...crossFieldProblems(config));
  if (lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return config;
}

/** For process entry points: a bad environment ends the process with one readable message, no stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

function crossFieldProblems(config: AppConfig): string[] {
  const problems: string[] = [];
  const callMs = config.PROVIDER_CONNECT_TIMEOUT_MS + config.PROVIDER_READ_TIMEOUT_MS;
  // A lease shorter than a call lets the sweeper declare a live sender dead (safe, but needless unknowns).
  if (config.SUBMIT_LEASE_MS <= callMs) problems.push(`  SUBMIT_LEASE_MS: must exceed PROVIDER_CONNECT_TIMEOUT_MS + PROVIDER_READ_TIMEOUT_MS (${callMs} ms)`);
  // A public secret with a real key would let anyone forge "succeeded" for any attempt.
  const realStripeKey = config.STRIPE_SECRET_KEY !== undefined && config.STRIPE_SECRET_KEY !== SIMULATOR_STRIPE_SECRET_KEY;
  if (realStripeKey && (config.STRIPE_WEBHOOK_SECRET === undefined || config.STRIPE_WEBHOOK_SECRET === SIMULATOR_STRIPE_WEBHOOK_SECRET)) {
    problems.push('  STRIPE_WEBHOOK_SECRET: must be set to the endpoint secret (whsec_...) of your Stripe account when STRIPE_SECRET_KEY is a real key');
  }
  problems.push(...efiProblems(config));
  // Resolution must still be asking when a strongly consistent "not found" becomes trustworthy.
  const waits = config.RESOLUTION_BACKOFF_MS;
  let total = 0;
  for (let i = 0; i < config.RESOLUTION_MAX_TRIES; i++) total += waits[Math.min(i, waits.length - 1)];
  if (total <= config.CONSISTENT_LOOKUP_GRACE_MS) {
    problems.push(`  RESOLUTION_BACKOFF_MS: its first RESOLUTION_MAX_TRIES waits (${total} ms) must outlast CONSISTENT_LOOKUP_GRACE_MS (${config.CONSISTENT_LOOKUP_GRACE_MS} ms)`);
  }
  // Real Asaas charges whose webhooks we would reject: every late payment would wait for a query or a person.
  if (config.ASAAS_API_KEY && !config.ASAAS_WEBHOOK_TOKEN) {
    problems.push('  ASAAS_WEBHOOK_TOKEN: must be set when ASAAS_API_KEY is (the token configured for the Asaas webhook)');
  }
  return [...problems, ...reconciliationScheduleProblems(config)];
}

/** A bad cron or zone would otherwise only surface when the worker boots, as a stack trace. */
function reconciliationScheduleProblems(config: AppConfig): string[] {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: config.RECONCILIATION_TZ });
  } catch {
    return [`  RECONCILIATION_TZ: unknown time zone "${config.RECONCILIATION_TZ}"`];
  }
  if (config.RECONCILIATION_CRON === 'off') return [];
  try {
    new CronTime(config.RECONCILIATION_CRON, config.RECONCILIATION_TZ);
    return [];
  } catch (error) {
    return [`  RECONCILIATION_CRON: ${error instanceof Error ? error.message : String(error)}`];
  }
}

/** Efí settings that only make sense together. Messages name variables and paths, never a secret. */
function efiProblems(config: AppConfig): string[] {
  const problems: string[] = [];
  if (config.EFI_WEBHOOK_TLS_PORT !== undefined) {
    for (const name of ['EFI_WEBHOOK_CA_PATH', 'EFI_WEBHOOK_TLS_CERT_PATH', 'EFI_WEBHOOK_TLS_KEY_PATH'] as const) {
      if (config[name] === undefined) problems.push(`  ${name}: must be set with EFI_WEBHOOK_TLS_PORT (the webhook's mutual TLS)`);
    }
  }
  for (const name of ['EFI_CERT_PATH', 'EFI_CA_PATH', 'EFI_WEBHOOK_CA_PATH', 'EFI_WEBHOOK_TLS_CERT_PATH', 'EFI_WEBHOOK_TLS_KEY_PATH'] as const) {
    const path = config[name];
    if (path === undefined) continue;
    try {
      accessSync(path, constants.R_OK);
    } catch {
      problems.push(`  ${name}: cannot read ${path}`);
    }
  }
  const secret = config.EFI_CLIENT_SECRET;
  if (secret === undefined) return problems;
  if (config.EFI_CLIENT_ID === undefined) problems.push('  EFI_CLIENT_ID: must be set with EFI_CLIENT_SECRET');
  if (config.EFI_PIX_KEY === undefined) problems.push('  EFI_PIX_KEY: must be set with EFI_CLIENT_SECRET (the payer key payouts leave from)');
  if (secret === SIMULATOR_EFI_CLIENT_SECRET) return problems;
  // A real account: an unauthenticated sent-Pix webhook would let anyone declare a payout REALIZADO.
  if (config.EFI_WEBHOOK_CA_PATH === undefined && config.EFI_WEBHOOK_HMAC === undefined) {
    problems.push('  EFI_WEBHOOK_CA_PATH or EFI_WEBHOOK_HMAC: one must be set to authenticate Efí webhooks when EFI_CLIENT_SECRET is a real secret');
  }
  // Efí refuses every call without the account certificate.
  if (config.EFI_CERT_PATH === undefined) problems.push('  EFI_CERT_PATH: must be set (the Efí account certificate) when EFI_CLIENT_SECRET is a real secret');
  return problems;
}
