import 'reflect-metadata';
import { withTokenStore } from './token-store.js';

/** Names, roles, holders and states only: a token itself is never stored, so it can never be listed. */
await withTokenStore(async (tokens) => {
  const rows = (await tokens.list()).map((t) => ({
    name: t.name,
    role: t.role,
    'merchant or person': t.holder,
    source: t.source,
    created: t.createdAt.toISOString(),
    state: t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'live',
  }));
  console.table(rows);
});
