import { describe, expect, it } from 'vitest';
import { asaasRefundLinesOf } from './asaas-refund-statement.reader.js';

const AT = '2026-12-01 12:00:00';
const panel = (status: string, value = 7) => ({ dateCreated: AT, status, value, description: 'Estorno pelo painel' });
const ours = (status: string, value = 7) => ({ dateCreated: AT, status, value, description: 'charge-once refund att-1' });
const idsOf = (refunds: unknown[]) => [...asaasRefundLinesOf({ id: 'pay_1', externalReference: null, refunds }, 'UTC')].map((line) => line.lineId);

describe('Asaas refund lines', () => {
  it.each([
    ['one panel refund', [panel('DONE')], ['pay_1:refund:2026-12-01 12:00:00:700:1']],
    ['ours is named by our attempt', [ours('DONE')], ['pay_1:refund:att-1']],
    ['PENDING and CANCELLED are no lines', [panel('PENDING'), panel('CANCELLED', 8)], []],
    ['ours pending before a panel one of the same second and value', [ours('PENDING'), panel('DONE')], ['pay_1:refund:2026-12-01 12:00:00:700:1']],
    ['the same, once ours is DONE: the panel one keeps its id', [ours('DONE'), panel('DONE')], ['pay_1:refund:att-1', 'pay_1:refund:2026-12-01 12:00:00:700:1']],
    ['a second panel refund still PENDING before it', [panel('PENDING'), panel('DONE')], ['pay_1:refund:2026-12-01 12:00:00:700:2']],
    ['the same, both DONE: neither moves', [panel('DONE'), panel('DONE')], ['pay_1:refund:2026-12-01 12:00:00:700:1', 'pay_1:refund:2026-12-01 12:00:00:700:2']],
    ['another value counts apart', [panel('DONE', 8), panel('DONE')], ['pay_1:refund:2026-12-01 12:00:00:800:1', 'pay_1:refund:2026-12-01 12:00:00:700:1']],
  ])('%s', (_case, refunds, ids) => {
    expect(idsOf(refunds)).toEqual(ids);
  });

  it('keeps a DONE refund of any day, dated by its dateCreated: the matcher decides which day classifies it', () => {
    const [line] = asaasRefundLinesOf({ id: 'pay_1', externalReference: null, refunds: [{ ...panel('DONE'), dateCreated: '2026-11-20 09:30:00' }] }, 'UTC');
    expect(line).toMatchObject({ kind: 'refund', providerChargeId: 'pay_1', amountCents: -700, createdAt: new Date('2026-11-20T09:30:00Z') });
  });
});
