import type { PoolClient } from 'pg';
import { acknowledgeDivergences } from './divergence-acknowledgement.js';
import type { MatchScope } from './statement.matching.js';
import { STAGING_TABLE } from './statement.staging.js';
import { refundLineOfRun } from './refund-statement.matcher.js';

/**
 * Another refund of the same charge made after the divergence was raised: someone may have refunded again because
 * the first looked lost, and now both went out. A person decides that one; the sighting is still recorded.
 */
const REFUNDED_AGAIN_SINCE = `SELECT 1 FROM attempts missing
                                JOIN attempts again ON again.charge_id = missing.charge_id AND again.operation = 'refund'
                                                   AND again.id <> missing.id AND again.created_at > d.created_at
                               WHERE missing.id = d.attempt_id`;

/** Who closes a divergence the provider's own statement answered, and the note it leaves. */
const FOUND_LATER = { actor: 'reconciliation', note: 'found on a later statement' } as const;

/**
 * Our successes an earlier run recorded as missing at the provider (`kind`) whose line this run staged (`lineOf`,
 * SQL joining the staged line `s` to the divergence's attempt `a`, `$4` the day's end). The run of the success's
 * day cannot always tell late from lost: Asaas enters a refund in its extrato once DONE, a day or more after it was
 * made, and books a payment by date, so a card confirmed after midnight is the next day's line. The run of the day
 * that books it sees its line. The divergence is kept: it gains the sighting (this run, its day, the line), once per
 * line, so the first run that found it stays named; then an open one is acknowledged as found on a later statement,
 * the way a person acknowledges one (whose acknowledgement, if first, stands), unless `stillOpenIf` (SQL about
 * `d`) holds. Two statements, each idempotent, so a run taken over half-way completes both. A line whose amount
 * differs is also classified on its own (an amount mismatch): this closes only "missing". Returns how many it closed.
 */
async function closeFoundLater(client: PoolClient, scope: MatchScope, kind: string, lineOf: string, stillOpenIf = 'false'): Promise<number> {
  await client.query(
    `UPDATE reconciliation_divergences d
        SET detail = d.detail || jsonb_build_object('foundLater', COALESCE(d.detail->'foundLater', '[]'::jsonb) || f.sightings), updated_at = now()
       FROM (SELECT m.id, jsonb_agg(jsonb_build_object('runId', $1::text, 'day', $3::text, 'lineId', s.line_id, 'lineCreatedAt', s.created_at,
                                                      'amountCents', abs(s.amount_cents), 'currency', s.currency) ORDER BY s.line_id) AS sightings
               FROM reconciliation_divergences m
               JOIN attempts a ON a.id = m.attempt_id
               JOIN ${STAGING_TABLE} s ON ${lineOf}
              WHERE m.provider = $2 AND m.kind = $5
                AND NOT COALESCE(m.detail->'foundLater', '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('lineId', s.line_id))
              GROUP BY m.id) f
      WHERE d.id = f.id`,
    [scope.runId, scope.provider, scope.day, scope.window.end, kind],
  );
  const { rowCount } = await client.query(
    acknowledgeDivergences(`d.provider = $1 AND d.kind = $4 AND d.detail ? 'foundLater' AND NOT (${stillOpenIf})`, '$2', '$3'),
    [scope.provider, FOUND_LATER.note, FOUND_LATER.actor, kind],
  );
  return rowCount ?? 0;
}

/**
 * Our refunds recorded as missing at the provider, found on a later statement. One stays open when the charge was
 * refunded again after the divergence was raised (REFUNDED_AGAIN_SINCE).
 */
export function closeRefundsFoundLater(client: PoolClient, scope: MatchScope): Promise<number> {
  return closeFoundLater(
    client,
    scope,
    'refund_missing_at_provider',
    `${refundLineOfRun('s', '$4')} AND (s.reference = a.provider_ref OR (a.provider_ref IS NULL AND s.attempt_ref = a.id))`,
    `EXISTS (${REFUNDED_AGAIN_SINCE})`,
  );
}

/**
 * Our charges recorded as missing at the provider, found on a later statement: a charge line of the very payment
 * our success recorded. By our reference only when the success recorded no payment id: otherwise another payment
 * carrying it is a second charge (a duplicate_charge), not the money our success says arrived.
 */
export function closeChargesFoundLater(client: PoolClient, scope: MatchScope): Promise<number> {
  return closeFoundLater(
    client,
    scope,
    'missing_at_provider',
    `s.kind = 'charge' AND s.created_at < $4 AND (s.provider_charge_id = a.provider_ref OR (a.provider_ref IS NULL AND s.attempt_ref = a.id))`,
  );
}

/** Who closes a provider-only refund the provider itself reversed, and the note it leaves. */
const REVERSED_LATER = { actor: 'reconciliation', note: 'reversed at the provider (refund_failure) on a later statement' } as const;

/**
 * Provider-only refunds (one we recorded as failed, or never made) that an earlier run saw and whose reversal (a
 * `refund_failure` line under the same refund id) this run staged: the money came back, so the refund moved none,
 * as when both lines are in one day's statement (the refund line is then no divergence at all). The divergence
 * gains the reversal (`reversedAtProvider`, once), which takes it out of the charge's provider-only refunded
 * amount (charge-rows.store), and an open one is acknowledged as such; the provider's own line decides, as it did
 * for the refund line. Returns how many it closed.
 */
export async function closeRefundsReversedLater(client: PoolClient, scope: MatchScope): Promise<number> {
  await client.query(
    `UPDATE reconciliation_divergences d
        SET detail = d.detail || jsonb_build_object('reversedAtProvider',
                       jsonb_build_object('runId', $1::text, 'day', $3::text, 'lineId', s.line_id, 'lineCreatedAt', s.created_at, 'amountCents', s.amount_cents)),
            updated_at = now()
       FROM ${STAGING_TABLE} s
      WHERE d.provider = $2 AND d.kind = 'refund_provider_only' AND NOT d.detail ? 'reversedAtProvider'
        AND s.kind = 'refund_failure' AND s.created_at < $4 AND s.reference = d.provider_charge_id
        AND s.amount_cents = d.amount_cents`,
    [scope.runId, scope.provider, scope.day, scope.window.end],
  );
  const { rowCount } = await client.query(
    acknowledgeDivergences(`d.provider = $1 AND d.kind = 'refund_provider_only' AND d.detail ? 'reversedAtProvider'`, '$2', '$3'),
    [scope.provider, REVERSED_LATER.note, REVERSED_LATER.actor],
  );
  return rowCount ?? 0;
}
