export { DomainError, type DomainErrorKind } from './domain-error.js';
export { isRecord, isUuid, parseJson } from './unknown-value.guards.js';
export { addDays, dayOf, isCalendarDay } from './calendar-day.js';
export { nameBasedUuid } from './name-based-uuid.js';
export { isoCurrency, type IsoCurrency } from './iso-currency.js';
