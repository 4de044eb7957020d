// The attempt rules alone, for other libraries' pure rules: the package barrel also exports services and would
// pull Nest and TypeORM into them.
export * from './attempt-rules.errors.js';
export * from './attempt-state-machine.js';
export * from './attempt-status.js';
export * from './backoff-schedule.js';
export * from './canonical-payload.js';
export * from './classify-gateway-response.js';
export * from './key-lifetime.js';
export * from './provider-fact.js';
