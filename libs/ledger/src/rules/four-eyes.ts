/**
 * Money an admin moves on a merchant's account (a credit, a payout from it) at or above this amount needs a second
 * person; below it, the admin's own name is the audit. One rule for every kind of request.
 */
export function needsSecondPerson(amountCents: number, fourEyesAmountCents: number): boolean {
  return amountCents >= fourEyesAmountCents;
}
