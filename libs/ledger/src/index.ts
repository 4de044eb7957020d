export { LedgerModule } from './ledger.module.js';
export { LedgerService } from './ledger.service.js';
export { AccountsService, ENTRIES_PAGE_DEFAULT, ENTRIES_PAGE_MAX, type AccountView, type CreditView, type EntriesPage } from './accounts.service.js';
export { type BalanceView, type LedgerEntryView, type LedgerMovement } from './ledger-entry.view.js';
export * from './ledger.errors.js';
export { askSecondPerson, claimForConfirmation, markConfirmed, payoutRequestsOf, toFourEyesRequestView, type FourEyesRequestView, type PayoutRequestDetailView } from './four-eyes-requests.store.js';
export { applyMovement, type LedgerBalance, type LedgerMovementKind, type MovementResult } from './rules/ledger-movement.js';
export { decideForReference, type ReferenceDecision, type ReferenceHistory } from './rules/ledger-reference.js';
