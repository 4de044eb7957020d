import type { DataSource, EntityManager } from 'typeorm';

/**
 * `provider_first_attempts` (migration 1764680379000): when the service first opened an attempt with a provider;
 * before that day (and before its first run) reconciliation has nothing of ours to compare. The first attempt writes
 * the row, every later one changes nothing: DO NOTHING, not DO UPDATE, takes no row lock, so openers never queue on it.
 */
export async function recordFirstAttempt(runner: DataSource | EntityManager, provider: string): Promise<void> {
  await runner.query(`INSERT INTO provider_first_attempts (provider, first_attempt_at) VALUES ($1, now()) ON CONFLICT (provider) DO NOTHING`, [provider]);
}
