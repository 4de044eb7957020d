import { CreateChargesAndAttempts1764680000000 } from './1764680000000-CreateChargesAndAttempts.js';
import { CreateApiTokensAndIdempotency1764680001000 } from './1764680001000-CreateApiTokensAndIdempotency.js';

/**
 * Every migration, in order. Listed explicitly (not globbed) so the same list loads from the TypeScript
 * sources under Vitest and from `dist/` in production. A generated migration is added here by hand.
 */
export const MIGRATIONS = [CreateChargesAndAttempts1764680000000, CreateApiTokensAndIdempotency1764680001000];
