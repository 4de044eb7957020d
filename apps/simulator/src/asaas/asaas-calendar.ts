/** Asaas keeps its calendar in Brasília time: a due date, "today" and OVERDUE are days there, not in UTC. */
const ASAAS_TIME_ZONE = 'America/Sao_Paulo';

const DAY_FORMAT = new Intl.DateTimeFormat('en-CA', { timeZone: ASAAS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The day (YYYY-MM-DD) an instant falls on in Asaas's calendar. */
export function asaasDay(instantMs: number): string {
  return DAY_FORMAT.format(instantMs);
}
