import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CronTime } from 'cron';
import { AppConfig } from './app-config.js';

// Settings with no default are not own properties of a fresh AppConfig, so they are named here.
const OPTIONAL_SETTINGS = ['API_TOKENS', 'STRIPE_SECRET_KEY'];

export class ConfigError extends Error {
  readonly code = 'invalid_config';
}

/** Reads and validates the environment; one readable message naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const names = [...Object.keys(new AppConfig()), ...OPTIONAL_SETTINGS];
  const relevant: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') relevant[name] = value;
  }
  const config = plainToInstance(AppConfig, relevant, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
  if (errors.length === 0) lines.push(...crossFieldProblems(config));
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
  const callMs = config.PROVIDER_CONNECT_TIMEOUT_MS + config.PROVIDER_READ_TIMEOUT_MS;
  // A lease shorter than a call lets the sweeper declare a live sender dead (safe, but needless unknowns).
  const problems =
    config.SUBMIT_LEASE_MS > callMs ? [] : [`  SUBMIT_LEASE_MS: must exceed PROVIDER_CONNECT_TIMEOUT_MS + PROVIDER_READ_TIMEOUT_MS (${callMs} ms)`];
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
