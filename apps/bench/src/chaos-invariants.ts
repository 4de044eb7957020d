import type pg from 'pg';
import type { Simulator } from '@app/simulator';

export interface InvariantResult {
  name: string;
  violations: string[];
}

/**
 * DESIGN.md section 13, after the storm: checked against the provider's own records (the simulator) and the
 * database, never against what the api said during the storm.
 */
export async function checkInvariants(db: pg.Pool, sim: Simulator, chargeIds: string[]): Promise<InvariantResult[]> {
  const { rows: attempts } = await db.query<{ charge_id: string; id: string; status: string; provider_charge_id: string | null; open_items: number }>(
    `SELECT a.charge_id, a.id, a.status, a.provider_ref AS provider_charge_id,
            (SELECT count(*)::int FROM review_items r WHERE r.attempt_id = a.id AND r.state <> 'closed') AS open_items
       FROM attempts a WHERE a.charge_id = ANY($1) AND a.operation = 'charge'`,
    [chargeIds],
  );
  const { rows: chargeItems } = await db.query<{ charge_id: string; n: number }>(
    `SELECT a.charge_id, count(*)::int AS n FROM review_items r JOIN attempts a ON a.id = r.attempt_id
      WHERE a.charge_id = ANY($1) AND r.state <> 'closed' GROUP BY a.charge_id`,
    [chargeIds],
  );
  const inReview = new Set(chargeItems.map((r) => r.charge_id));
  const byCharge = new Map<string, typeof attempts>();
  for (const a of attempts) byCharge.set(a.charge_id, [...(byCharge.get(a.charge_id) ?? []), a]);
  const intents = sim.intents();
  const taken = new Map<string, string[]>();
  for (const intent of intents) {
    if (intent.status !== 'succeeded' || !intent.metadata.charge_id) continue;
    taken.set(intent.metadata.charge_id, [...(taken.get(intent.metadata.charge_id) ?? []), intent.id]);
  }

  const atMostOneTaken: string[] = [];
  const takenIsRecorded: string[] = [];
  const recordedIsTaken: string[] = [];
  const settledOrReviewed: string[] = [];
  const oneOpen: string[] = [];
  for (const chargeId of chargeIds) {
    const ours = byCharge.get(chargeId) ?? [];
    const theirs = taken.get(chargeId) ?? [];
    const succeeded = ours.filter((a) => a.status === 'succeeded');
    if (theirs.length > 1 && !inReview.has(chargeId)) atMostOneTaken.push(`${chargeId}: ${theirs.length} provider successes and no open review item`);
    for (const id of theirs) {
      if (!succeeded.some((a) => a.provider_charge_id === id) && !inReview.has(chargeId)) takenIsRecorded.push(`${chargeId}: provider took ${id}, not recorded, no review item`);
    }
    for (const a of succeeded) if (!theirs.includes(a.provider_charge_id ?? '')) recordedIsTaken.push(`${chargeId}: attempt ${a.id} succeeded with ${a.provider_charge_id}, not a success at the provider`);
    for (const a of ours) {
      if (a.status === 'pending' || (a.status === 'unknown' && a.open_items === 0)) settledOrReviewed.push(`${chargeId}: attempt ${a.id} is ${a.status} with no review item`);
    }
    if (ours.filter((a) => a.status === 'pending' || a.status === 'unknown').length > 1) oneOpen.push(`${chargeId}: more than one open attempt`);
  }
  const creates = Object.entries(sim.stats().createsByIdempotencyKey).filter(([, count]) => count > 1).map(([key, count]) => `key ${key}: ${count} creates`);
  return [
    { name: 'at most one provider success per charge (else a person is on it)', violations: atMostOneTaken },
    { name: 'every provider success is our recorded success (or under review)', violations: takenIsRecorded },
    { name: 'every recorded success is a success at the provider', violations: recordedIsTaken },
    { name: 'every attempt succeeded, failed, or unknown with an open review item', violations: settledOrReviewed },
    { name: 'at most one open attempt per charge', violations: oneOpen },
    { name: 'at most one create per idempotency key at the provider', violations: creates },
  ];
}
