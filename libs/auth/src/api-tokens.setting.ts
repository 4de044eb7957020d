import type { ApiRole } from '@app/database';
import { hashToken } from './token.hash.js';

export interface ApiTokenEntry {
  role: ApiRole;
  /** The merchant (merchant tokens) or person (reviewer, admin) the token belongs to; absent in the short form. */
  holder: string | null;
  token: string;
}

const ROLES: readonly ApiRole[] = ['merchant', 'reviewer', 'admin'];
const HOLDER = /^[A-Za-z0-9_.@-]{1,64}$/;

/**
 * API_TOKENS, comma-separated: `role:token` (each such token is its own person, or its own merchant) or
 * `role:holder:token` (`reviewer:alice:<token>`, `merchant:acme:<token>`). Anything else stops the boot, naming it.
 */
export function parseApiTokensSetting(setting: string | undefined): ApiTokenEntry[] {
  return (setting ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((entry, i) => {
      const parts = entry.split(':');
      const role = ROLES.find((r) => r === parts[0]);
      const where = `API_TOKENS entry ${i + 1}`;
      if (!role) throw new Error(`${where}: the role must be merchant, reviewer or admin`);
      if (parts.length === 2 && parts[1]) return { role, holder: null, token: parts[1] };
      if (parts.length === 3 && parts[2] && HOLDER.test(parts[1])) return { role, holder: parts[1], token: parts[2] };
      throw new Error(`${where}: expected role:token or role:holder:token (holder: letters, digits, . _ @ -)`);
    });
}

/** The name an API_TOKENS entry's token gets in api_tokens (what `ownerTokenName` and token:list show). */
export function envTokenName(entry: ApiTokenEntry): string {
  const short = hashToken(entry.token).slice(0, 8);
  return entry.holder ? `${entry.role}-${entry.holder}-${short}` : `${entry.role}-${short}`;
}
