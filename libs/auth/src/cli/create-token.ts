import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ApiTokenService, TokenNameTakenError } from '../api-token.service.js';
import { withTokenStore } from './token-store.js';

const { values } = parseArgs({ options: { name: { type: 'string' }, role: { type: 'string' }, person: { type: 'string' }, merchant: { type: 'string' } } });
const roles = ['merchant', 'reviewer', 'admin'] as const;
const role = roles.find((r) => r === values.role);
const holder = role === 'merchant' ? values.merchant : values.person;
const wrongHolder = role === 'merchant' ? values.person : values.merchant;
if (!role || !(values.name || holder) || wrongHolder) {
  console.error('usage: npm run token:create -- --role reviewer|admin --person <who> [--name <token name>]');
  console.error('       npm run token:create -- --role merchant --merchant <merchant> [--name <token name>]');
  process.exit(2);
}
const name = values.name ?? `${role}-${holder}-${Date.now().toString(36)}`;
await withTokenStore(async (tokens: ApiTokenService) => {
  try {
    const token = await tokens.create(name, role, { holder });
    console.log(`token ${name} for ${holder ?? name} (${role}), shown once:\n${token}`);
  } catch (error) {
    if (!(error instanceof TokenNameTakenError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
});
