import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key that encrypts webhook endpoint secrets, when EVENTS_ENCRYPTION_KEY is unset: random the first time, then
 * kept in `<dataDir>/events-encryption-key` (mode 600) so endpoints made in one run can still be signed for in the
 * next. Losing the file loses the endpoints' secrets (rotate them), never any money.
 */
export function eventsEncryptionKey(dataDir: string): string {
  const file = join(dataDir, 'events-encryption-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
