import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LedgerAccountEntity, LedgerEntryEntity, type LedgerEntryKind } from '@app/database';
import {
  AccountNotFoundError,
  AmountTooLargeError,
  InsufficientBalanceError,
  LedgerReferenceReusedError,
  ReservationNotFoundError,
  ReservationNotReleasedError,
  ReservationSettledError,
} from './ledger.errors.js';
import { toEntryView, type LedgerMovement } from './ledger-entry.view.js';
import { applyMovement } from './rules/ledger-movement.js';
import { decideForReference } from './rules/ledger-reference.js';

/** Who wrote an entry when no person did: the payout wiring writes as the system. */
const SYSTEM = 'system';

/**
 * Every balance movement, each inside the caller's transaction so it commits (or not) with whatever caused it: a
 * reservation with the payout attempt that opens, a debit or release with the transition that ends it.
 *
 * Each call locks the account row first (`FOR UPDATE`), so movements of one account are serialised by
 * PostgreSQL whatever process makes them; it then decides from the entries already under the reference
 * (exactly once), applies the pure rule, and writes the new balance with a compare-and-set UPDATE whose row
 * count is checked, followed by the entry. The CHECK on the account and the unique indexes on the entries are
 * the last word if any of this were ever wrong. Nothing is written before a refusal is known.
 */
@Injectable()
export class LedgerService {
  credit(em: EntityManager, accountId: string, amountCents: number, reference: string, createdBy = SYSTEM): Promise<LedgerMovement> {
    return this.move(em, accountId, 'credit', amountCents, reference, createdBy);
  }

  /** Takes `amountCents` from available into reserved; refused (422, naming the available balance) when short. */
  reserve(em: EntityManager, accountId: string, amountCents: number, reference: string, createdBy = SYSTEM): Promise<LedgerMovement> {
    return this.move(em, accountId, 'reserve', amountCents, reference, createdBy);
  }

  /** Gives the reservation under `reference` back to available (the payout failed). */
  release(em: EntityManager, accountId: string, reference: string, createdBy = SYSTEM): Promise<LedgerMovement> {
    return this.move(em, accountId, 'release', null, reference, createdBy);
  }

  /** Turns the reservation under `reference` into money that left (the payout succeeded). */
  debit(em: EntityManager, accountId: string, reference: string, createdBy = SYSTEM): Promise<LedgerMovement> {
    return this.move(em, accountId, 'debit', null, reference, createdBy);
  }

  /**
   * Records a payout that left after its reservation (`reference`) was released: `amountCents` comes out of
   * available, and what available cannot cover is owed. Once per reference; refused unless it was released.
   */
  lateDebit(em: EntityManager, accountId: string, reference: string, amountCents: number, createdBy = SYSTEM): Promise<LedgerMovement> {
    return this.move(em, accountId, 'late_debit', amountCents, reference, createdBy);
  }

  /**
   * The account row, locked FOR UPDATE until the caller's transaction ends: every movement takes this lock first,
   * so what the caller decides from it (a payout refused while the account owes) holds until it commits.
   */
  async lockAccount(em: EntityManager, accountId: string): Promise<LedgerAccountEntity> {
    const account = await em
      .getRepository(LedgerAccountEntity)
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.id = :accountId', { accountId })
      .getOne();
    if (!account) throw new AccountNotFoundError(accountId);
    return account;
  }

  private async move(
    em: EntityManager,
    accountId: string,
    kind: LedgerEntryKind,
    requestedCents: number | null,
    reference: string,
    createdBy: string,
  ): Promise<LedgerMovement> {
    const account = await this.lockAccount(em, accountId);

    const entries = em.getRepository(LedgerEntryEntity);
    const history = await entries.find({ where: { accountId, reference } });
    const decision = decideForReference(kind, requestedCents, history);
    if (decision.action === 'replay') return { entry: toEntryView(history.find((e) => e.kind === kind)!), replayed: true };
    if (decision.action === 'refuse') {
      if (decision.reason === 'amount_differs') throw new LedgerReferenceReusedError(accountId, kind, reference);
      if (decision.reason === 'no_reservation') throw new ReservationNotFoundError(accountId, reference);
      if (decision.reason === 'not_released') throw new ReservationNotReleasedError(accountId, reference);
      throw new ReservationSettledError(accountId, reference, kind);
    }

    const before = { availableCents: account.availableCents, reservedCents: account.reservedCents, owedCents: account.owedCents };
    const result = applyMovement(before, kind, decision.amountCents);
    if (!result.ok) {
      if (result.reason === 'insufficient_available') {
        throw new InsufficientBalanceError(accountId, before.availableCents, decision.amountCents, account.currency);
      }
      if (result.reason === 'balance_overflow') throw new AmountTooLargeError(accountId, decision.amountCents, account.currency);
      // The payout opener refuses a payout while the account owes, under this same lock, before it gets here.
      if (result.reason === 'account_owes') throw new Error(`account ${accountId} owes ${before.owedCents}: reservation "${reference}" refused`);
      // A release or debit larger than what is reserved means the ledger itself is wrong: stop, never clamp.
      throw new Error(`ledger invariant broken: ${kind} of ${decision.amountCents} on account ${accountId} (${result.reason})`);
    }

    const updated = await em
      .createQueryBuilder()
      .update(LedgerAccountEntity)
      .set({ availableCents: result.balance.availableCents, reservedCents: result.balance.reservedCents, owedCents: result.balance.owedCents })
      .where('id = :accountId AND available_cents = :available AND reserved_cents = :reserved AND owed_cents = :owed', {
        accountId,
        available: before.availableCents,
        reserved: before.reservedCents,
        owed: before.owedCents,
      })
      .execute();
    if (updated.affected !== 1) throw new Error(`ledger account ${accountId} changed under its row lock`);

    const entry = await entries.save(
      entries.create({
        accountId,
        kind,
        amountCents: decision.amountCents,
        reference,
        availableAfterCents: result.balance.availableCents,
        reservedAfterCents: result.balance.reservedCents,
        owedAfterCents: result.balance.owedCents,
        createdBy,
      }),
    );
    return { entry: toEntryView(entry), replayed: false };
  }
}
