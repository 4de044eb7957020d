export { DomainError, type DomainErrorKind } from './domain-error.js';
export { isRecord, isUuid, parseJson } from './unknown-value.guards.js';
export { addDays, dayOf } from './calendar-day.js';
