export { AuthModule } from './auth.module.js';
export { ApiTokenService, TokenNameTakenError } from './api-token.service.js';
export { Public, Roles, CurrentActor } from './auth.decorators.js';
export { type Actor, actorHasRole } from './actor.js';
export { hashToken } from './token.hash.js';
