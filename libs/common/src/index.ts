export { DomainError, type DomainErrorKind } from './domain-error.js';
export { isRecord, isUuid, parseJson } from './unknown-value.guards.js';
export { addDays, dayOf, isCalendarDay } from './calendar-day.js';
export { nameBasedUuid } from './name-based-uuid.js';
export { isoCurrency, type IsoCurrency } from './iso-currency.js';
export {
  LIST_PAGE_DEFAULT, LIST_PAGE_MAX, decodeListCursor, encodeListCursor, listCreatedRange, listCursor, listInstant, listLimit, listStatus, listText, listUuid, pageOf,
  type CreatedRange, type ListPage, type ListPosition, type RawQuery,
} from './list-page.js';
export * from './list-page.errors.js';
export { keysetSql, positionSql } from './list-page.sql.js';
