import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { say } from './terminal.js';

export type DevTokens = Record<'merchant' | 'reviewer' | 'admin', string>;

/**
 * Dev tokens when API_TOKENS is unset: random the first time, then kept in `<dataDir>/dev-tokens.json` (mode 600,
 * beside the embedded database they belong to) and reused by every later `npm start`, so runs do not pile up
 * tokens. The api only accepts env tokens its setting names, so an earlier run's tokens are never left working.
 */
export function devTokens(dataDir: string): DevTokens {
  const file = join(dataDir, 'dev-tokens.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<DevTokens>;
    if (kept.merchant && kept.reviewer && kept.admin) return { merchant: kept.merchant, reviewer: kept.reviewer, admin: kept.admin };
  }
  const make = (role: string) => `dev_${role}_${randomBytes(24).toString('base64url')}`;
  const tokens = { merchant: make('merchant'), reviewer: make('reviewer'), admin: make('admin') };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(tokens, null, 2), { mode: 0o600 });
  return tokens;
}

export function apiTokensSetting(tokens: DevTokens): string {
  return Object.entries(tokens).map(([role, token]) => `${role}:${token}`).join(',');
}

/** What a newcomer needs once everything answers: where it is, the tokens, and a charge to try. */
export function printReady(port: number, workerPort: number, simulated: boolean, tokens: DevTokens | null): void {
  const bearer = tokens ? tokens.merchant : '$MERCHANT_TOKEN';
  const body = '{"orderId":"o-1","amountCents":4990,"currency":"usd","customerId":"cus_demo","paymentMethodId":"pm_card_visa"}';
  const lines = [
    '',
    `ready: api http://127.0.0.1:${port} (GET /docs for the OpenAPI page, /admin/queues for the queue board with an admin token), ` +
      `worker running (metrics on :${workerPort}/metrics)${simulated ? ', simulator running' : ''}`,
    tokens
      ? 'API_TOKENS was not set, so these dev tokens are used (kept in .data/dev-tokens.json and reused by every npm start; set API_TOKENS to choose your own):'
      : 'using the tokens from API_TOKENS (not shown); below, $MERCHANT_TOKEN stands for a merchant token',
    ...(tokens ? Object.entries(tokens).map(([role, token]) => `  ${role.padEnd(9)} ${token}`) : []),
    'try:',
    `  curl -H "Authorization: Bearer ${bearer}" -X POST localhost:${port}/charges -H 'content-type: application/json' -d '${body}'`,
    `  curl -H "Authorization: Bearer ${bearer}" -X POST localhost:${port}/charges/<id from the answer>/submit`,
    `  curl -H "Authorization: Bearer ${bearer}" localhost:${port}/charges/<id>`,
    'Ctrl-C stops everything.',
    '',
  ];
  for (const line of lines) say(line);
}
