import { describe, expect, it } from 'vitest';
import { copyRow } from './statement.staging.js';

const line = {
  lineId: 'txn_1', kind: 'charge' as const, providerChargeId: 'pi_1', attemptId: '0F8FAD5B-D9CB-469F-A165-70867728950E', chargeId: 'not-a-uuid',
  amountCents: 4990, currency: 'usd', createdAt: new Date('2026-12-01T12:00:00Z'),
};

describe('copyRow: COPY text format, never a broken row', () => {
  it('writes tab-separated fields, lower-cased uuids, \\N for null and for a reference that is not a uuid', () => {
    expect(copyRow(line)).toBe('txn_1\tcharge\tpi_1\t0f8fad5b-d9cb-469f-a165-70867728950e\t\\N\t4990\tusd\t2026-12-01T12:00:00.000Z\t\\N\t\\N\n');
  });

  it("keeps the provider's own id and status of the operation as evidence", () => {
    const row = copyRow({ ...line, kind: 'payout', reference: 'AbC123', providerStatus: 'NAO_REALIZADO' });
    expect(row.trimEnd().split('\t').slice(-2)).toEqual(['AbC123', 'NAO_REALIZADO']);
  });

  it.each([
    ['tab\there', 'tab\\there'],
    ['new\nline', 'new\\nline'],
    ['back\\slash', 'back\\\\slash'],
    ['cr\rx', 'cr\\rx'],
  ])('escapes %j', (raw, escaped) => {
    expect(copyRow({ ...line, lineId: raw }).split('\t')[0]).toBe(escaped);
  });

  it('a missing provider charge id is null, not an empty string', () => {
    expect(copyRow({ ...line, providerChargeId: null }).split('\t')[2]).toBe('\\N');
  });
});
