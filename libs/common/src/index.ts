export { DomainError, type DomainErrorKind } from './domain-error.js';
