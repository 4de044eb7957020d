import { Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { providerFirstDaySql } from '@app/database';

const logger = new Logger('ReconciliationGaps');

export interface GapWindow {
  provider: string;
  /** The first day of the catch-up window: every earlier day without a succeeded run is a gap. */
  windowStart: string;
  /** How far before the window to look (RECONCILIATION_GAP_LOOKBACK_DAYS). */
  lookbackDays: number;
  timeZone: string;
}

/**
 * Days before the catch-up window that never got a succeeded run each open one `reconciliation_gap` review item,
 * with the day's runs as evidence, instead of silently leaving the window. Looked for from the provider's first
 * sign of life (`providerFirstDaySql`: its first attempt or run; before that there is nothing of ours to reconcile),
 * and never more than `lookbackDays` before the window, so a tick's work stays bounded whatever the history. The
 * unique index (provider, day) makes a second item for a day impossible, however many workers tick at once. A
 * provider with no sign of life has no gap (a fresh install opens none), and a day whose run is still `running`
 * past the window is a gap too: a run that never finishes must not hide its day (a later success closes the item).
 * Returns the days that got an item now.
 */
export async function openGapReviewItems(em: EntityManager, gap: GapWindow): Promise<string[]> {
  const rows = await em.query<Array<{ day: string }>>(
    `WITH first_seen AS (
       SELECT ${providerFirstDaySql('$1', '$4')} AS day)
     INSERT INTO review_items (id, reason, state, gap_provider, gap_day, evidence)
     SELECT gen_random_uuid(), 'reconciliation_gap', 'open', $1, d::date,
            jsonb_build_object('provider', $1::text, 'day', d::date, 'runs',
              (SELECT coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'trigger', r.trigger, 'status', r.status, 'error', r.error,
                                                            'startedAt', r.started_at, 'finishedAt', r.finished_at) ORDER BY r.started_at), '[]'::jsonb)
                 FROM reconciliation_runs r WHERE r.provider = $1 AND r.day = d::date))
       FROM first_seen f,
            generate_series(greatest(f.day, $2::date - $3::int), $2::date - 1, interval '1 day') d
      WHERE f.day IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM reconciliation_runs r WHERE r.provider = $1 AND r.day = d::date AND r.status = 'succeeded')
     ON CONFLICT (gap_provider, gap_day) WHERE gap_day IS NOT NULL DO NOTHING
     RETURNING gap_day::text AS day`,
    [gap.provider, gap.windowStart, gap.lookbackDays, gap.timeZone],
  );
  for (const { day } of rows) logger.warn({ provider: gap.provider, day }, 'a day left the catch-up window unreconciled: review item opened');
  return rows.map((r) => r.day);
}
