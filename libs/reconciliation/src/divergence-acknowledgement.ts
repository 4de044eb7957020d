/**
 * SQL: the one way a divergence is acknowledged, by a person through the API or by reconciliation itself: open to
 * acknowledged, once, with who and why (`note` and `actor` are placeholders or SQL expressions). It stays where it is,
 * re-runs still see it, and what it lowered stays lowered; an acknowledgement already made is never rewritten.
 */
export function acknowledgeDivergences(where: string, note: string, actor: string): string {
  return `UPDATE reconciliation_divergences d
             SET status = 'acknowledged', note = ${note}, acknowledged_by = ${actor}, acknowledged_at = now(), updated_at = now()
           WHERE d.status = 'open' AND (${where}) RETURNING d.id`;
}
