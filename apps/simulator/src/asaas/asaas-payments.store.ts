import type { AsaasPayment } from './asaas-payment.js';

interface Entry {
  payment: AsaasPayment;
  createdAtMs: number;
}

/**
 * Every Asaas payment the simulator holds, in creation order. The list by filter only sees payments
 * older than the configured list lag (Asaas does not promise the list is consistent right after a
 * create); a retrieve by id always sees them. Nothing here is unique: two creates with one
 * `externalReference` are two payments, as at Asaas.
 */
export class AsaasPaymentStore {
  private entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();

  add(payment: AsaasPayment, createdAtMs: number): void {
    const entry = { payment, createdAtMs };
    this.entries.push(entry);
    this.byId.set(payment.id, entry);
  }

  get(id: string): AsaasPayment | undefined {
    return this.byId.get(id)?.payment;
  }

  /** `GET /v3/payments`: newest first, deleted payments left out, lagging behind creates by `lagMs`. */
  list(filter: AsaasListFilter, lagMs: number, nowMs: number, offset: number, limit: number) {
    const visible = [...this.entries]
      .reverse()
      .filter(({ payment, createdAtMs }) => createdAtMs <= nowMs - lagMs && !payment.deleted && matches(payment, filter))
      .map(({ payment }) => payment);
    return { data: visible.slice(offset, offset + limit), totalCount: visible.length, hasMore: visible.length > offset + limit };
  }

  find(filter: { externalReference?: string; customer?: string }): AsaasPayment[] {
    return this.entries.filter(({ payment }) => matches(payment, filter)).map(({ payment }) => payment);
  }

  clear(): void {
    this.entries = [];
    this.byId.clear();
  }
}

/** The list's filters; payment dates are `YYYY-MM-DD`, inclusive, and leave out payments not yet paid. */
export interface AsaasListFilter {
  externalReference?: string;
  customer?: string;
  paymentDateGe?: string;
  paymentDateLe?: string;
  billingType?: string;
  status?: string;
  dateCreatedGe?: string;
  dateCreatedLe?: string;
}

function matches(payment: AsaasPayment, filter: AsaasListFilter): boolean {
  const paid = payment.paymentDate;
  return (
    (filter.externalReference === undefined || payment.externalReference === filter.externalReference) &&
    (filter.customer === undefined || payment.customer === filter.customer) &&
    (filter.billingType === undefined || payment.billingType === filter.billingType) &&
    (filter.status === undefined || payment.status === filter.status) &&
    (filter.dateCreatedGe === undefined || payment.dateCreated >= filter.dateCreatedGe) &&
    (filter.dateCreatedLe === undefined || payment.dateCreated <= filter.dateCreatedLe) &&
    (filter.paymentDateGe === undefined || (paid !== null && paid >= filter.paymentDateGe)) &&
    (filter.paymentDateLe === undefined || (paid !== null && paid <= filter.paymentDateLe))
  );
}
