import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envTokenName, type ApiTokenEntry } from '@app/auth';
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

/** Each dev token has its holder (the demo merchant, reviewer and admin), so the api names it predictably. */
const HOLDERS: DevTokens = { merchant: 'demo-merchant', reviewer: 'demo-reviewer', admin: 'demo-admin' };

function entries(tokens: DevTokens): ApiTokenEntry[] {
  return (Object.keys(tokens) as Array<keyof DevTokens>).map((role) => ({ role, holder: HOLDERS[role], token: tokens[role] }));
}

export function apiTokensSetting(tokens: DevTokens): string {
  return entries(tokens).map((e) => `${e.role}:${e.holder}:${e.token}`).join(',');
}

/** What a newcomer needs once everything answers: where it is, the tokens, a charge and a payout to try. */
export function printReady(port: number, workerPort: number, simulated: boolean, tokens: DevTokens | null): void {
  const merchant = tokens ? tokens.merchant : '$MERCHANT_TOKEN';
  const admin = tokens ? tokens.admin : '$ADMIN_TOKEN';
  const merchantName = tokens ? envTokenName({ role: 'merchant', holder: HOLDERS.merchant, token: tokens.merchant }) : '<the merchant token\'s name (npm run token:list)>';
  const api = `localhost:${port}`;
  const json = "-H 'content-type: application/json'";
  const charge = '{"orderId":"o-1","amountCents":4990,"currency":"usd","customerId":"cus_demo","paymentMethodId":"pm_card_visa"}';
  const lines = [
    '',
    `ready: api http://127.0.0.1:${port} (GET /docs for the OpenAPI page, /admin/queues for the queue board with an admin token, ` +
      `/review for the review console), worker running (metrics on :${workerPort}/metrics)${simulated ? ', simulator running' : ''}`,
    tokens
      ? 'API_TOKENS was not set, so these dev tokens are used (kept in .data/dev-tokens.json and reused by every npm start; set API_TOKENS to choose your own):'
      : 'using the tokens from API_TOKENS (not shown); below, $MERCHANT_TOKEN and $ADMIN_TOKEN stand for your tokens',
    ...(tokens ? entries(tokens).map((e) => `  ${e.role.padEnd(9)} ${e.token}  (${e.role === 'merchant' ? 'merchant' : 'person'} ${e.holder}, token name ${envTokenName(e)})`) : []),
    'try a charge:',
    `  curl -H "Authorization: Bearer ${merchant}" -X POST ${api}/charges ${json} -d '${charge}'`,
    `  curl -H "Authorization: Bearer ${merchant}" -X POST ${api}/charges/<id from the answer>/submit`,
    `  curl -H "Authorization: Bearer ${merchant}" ${api}/charges/<id>`,
    'try money out (the admin opens and funds an account; its merchant sends a Pix payout):',
    `  curl -H "Authorization: Bearer ${admin}" -X POST ${api}/accounts ${json} -d '{"ownerTokenName":"${merchantName}","currency":"brl"}'`,
    `  curl -H "Authorization: Bearer ${admin}" -H 'Idempotency-Key: fund-1' -X POST ${api}/accounts/<account id>/credits ${json} -d '{"amountCents":50000,"reference":"wire-1"}'`,
    `  curl -H "Authorization: Bearer ${merchant}" -X POST ${api}/accounts/<account id>/payouts ${json} -d '{"amountCents":2500,"pixKey":"payee@example.com.br","pixKeyType":"email"}'`,
    `  curl -H "Authorization: Bearer ${merchant}" ${api}/accounts/<account id>/balance`,
    'Ctrl-C stops everything.',
    '',
  ];
  for (const line of lines) say(line);
}
