/**
 * SQL for the first day (a `date` in the time zone bound to `timeZone`) the service did anything with the provider
 * bound to `provider`: its first attempt (`provider_first_attempts`, a charge, refund or payout) or its first run
 * (`min(day)` on ix_reconciliation_runs_provider_day), whichever came first; NULL for a provider never seen. Before
 * it there is nothing of ours to reconcile: the calendar's `before_service`, never caught up nor a gap.
 */
export function providerFirstDaySql(provider: `$${number}`, timeZone: `$${number}`): string {
  return `least((SELECT (fa.first_attempt_at AT TIME ZONE ${timeZone})::date FROM provider_first_attempts fa WHERE fa.provider = ${provider}),
                (SELECT min(fr.day) FROM reconciliation_runs fr WHERE fr.provider = ${provider}))`;
}
