import { describe, expect, it } from 'vitest';
import { asaasRefundLinesOf } from './asaas-refund-statement.reader.js';

const AT = '2026-12-01 12:00:00';
const panel = (status: string, value = 7) => ({ dateCreated: AT, status, value, description: 'Estorno pelo painel' });
const ours = (status: string, value = 7, attempt = 'att-1') => ({ dateCreated: AT, status, value, description: `charge-once refund ${attempt}` });
const linesOf = (refunds: unknown[]) => [...asaasRefundLinesOf({ id: 'pay_1', externalReference: null, refunds }, 'UTC')];
const idsOf = (refunds: unknown[]) => linesOf(refunds).filter((line) => line.kind === 'refund').map((line) => line.lineId);
const P7 = 'pay_1:refund:2026-12-01 12:00:00:700';

describe('Asaas refund lines', () => {
  it.each([
    ['one panel refund', [panel('DONE')], [`${P7}:1`]],
    ['ours is named by our attempt', [ours('DONE')], ['pay_1:refund:att-1']],
    ['PENDING and CANCELLED are no lines', [panel('PENDING'), panel('CANCELLED', 8)], []],
    ['ours pending before a panel one of the same second and value', [ours('PENDING'), panel('DONE')], [`${P7}:1`]],
    ['the same, once ours is DONE: the panel one keeps its id', [ours('DONE'), panel('DONE')], ['pay_1:refund:att-1', `${P7}:1`]],
    ['a second panel refund still PENDING before it', [panel('PENDING'), panel('DONE')], [`${P7}:1`]],
    ['a CANCELLED panel refund before it', [panel('CANCELLED'), panel('DONE')], [`${P7}:1`]],
    ['the same, both DONE: numbered 1 and 2', [panel('DONE'), panel('DONE')], [`${P7}:1`, `${P7}:2`]],
    ['another value counts apart', [panel('DONE', 8), panel('DONE')], ['pay_1:refund:2026-12-01 12:00:00:800:1', `${P7}:1`]],
  ])('%s', (_case, refunds, ids) => {
    expect(idsOf(refunds)).toEqual(ids);
  });

  it('names a group of DONE panel refunds 1..k whatever the list order and whatever sits beside them', () => {
    const group = [panel('DONE'), panel('CANCELLED'), panel('DONE'), ours('DONE'), panel('PENDING'), panel('DONE')];
    const reordered = [panel('PENDING'), panel('DONE'), ours('DONE'), panel('DONE'), panel('DONE'), panel('CANCELLED')];
    const panelIds = (refunds: unknown[]) => idsOf(refunds).filter((id) => id.startsWith(P7)).sort();
    expect(panelIds(group)).toEqual([`${P7}:1`, `${P7}:2`, `${P7}:3`]);
    expect(panelIds(reordered)).toEqual(panelIds(group));
  });

  it('keeps the ids the earlier rule stored (DONE refunds of the second and value, ours counted) when none of ours shares them', () => {
    // The earlier rule's ids for this list: the panel refunds at 12:00:00 R$7 were :1 and :2, the R$8 one :1.
    const refunds = [panel('CANCELLED'), panel('DONE'), ours('DONE', 5), panel('DONE', 8), panel('PENDING'), panel('DONE')];
    expect(idsOf(refunds)).toEqual([`${P7}:1`, 'pay_1:refund:att-1', 'pay_1:refund:2026-12-01 12:00:00:800:1', `${P7}:2`]);
  });

  it('makes a second DONE refund carrying our attempt a line of its own, linked to no attempt', () => {
    const lines = linesOf([ours('DONE', 10), ours('CANCELLED', 10), ours('DONE', 10), ours('DONE', 10, 'att-2')]).filter((line) => line.kind === 'refund');
    expect(lines.map(({ lineId, reference, attemptId, amountCents }) => ({ lineId, reference, attemptId, amountCents }))).toEqual([
      { lineId: 'pay_1:refund:att-1', reference: 'pay_1:refund:att-1', attemptId: 'att-1', amountCents: -1000 },
      { lineId: 'pay_1:refund:att-1:2', reference: 'pay_1:refund:att-1:2', attemptId: null, amountCents: -1000 },
      { lineId: 'pay_1:refund:att-2', reference: 'pay_1:refund:att-2', attemptId: 'att-2', amountCents: -1000 },
    ]);
  });

  it('keeps a DONE refund of any day, dated by its dateCreated: the matcher decides which day classifies it', () => {
    const [line] = asaasRefundLinesOf({ id: 'pay_1', externalReference: null, refunds: [{ ...panel('DONE'), dateCreated: '2026-11-20 09:30:00' }] }, 'UTC');
    expect(line).toMatchObject({ kind: 'refund', providerChargeId: 'pay_1', amountCents: -700, createdAt: new Date('2026-11-20T09:30:00Z') });
  });

  it('makes each CANCELLED refund carrying our attempt a refund_cancelled line keyed by our refund id, and a panel one none', () => {
    const lines = linesOf([ours('CANCELLED', 10), panel('CANCELLED'), ours('DONE', 5, 'att-2'), ours('CANCELLED', 10)]).filter((line) => line.kind === 'refund_cancelled');
    expect(lines).toEqual([1, 2].map((nth) => ({
      lineId: `pay_1:refund:att-1:cancelled:${nth}`,
      kind: 'refund_cancelled',
      providerChargeId: 'pay_1',
      attemptId: 'att-1',
      chargeId: null,
      amountCents: -1000,
      currency: 'brl',
      createdAt: new Date('2026-12-01T12:00:00Z'),
      reference: 'pay_1:refund:att-1',
      providerStatus: 'CANCELLED',
    })));
  });
});
