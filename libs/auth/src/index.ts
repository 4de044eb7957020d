export { AuthModule } from './auth.module.js';
export { ApiTokenService, TokenNameTakenError, type TokenListing } from './api-token.service.js';
export { AuthFailureLimiter } from './auth-failure.limiter.js';
export { Public, Roles, CurrentActor } from './auth.decorators.js';
export { type Actor, actorHasRole, idempotencyScope, merchantScope } from './actor.js';
export { hashToken } from './token.hash.js';
export { envTokenName, type ApiTokenEntry } from './api-tokens.setting.js';
