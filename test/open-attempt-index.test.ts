import { randomUUID } from 'node:crypto';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptEntity, ChargeEntity, dataSourceOptions, isUniqueViolation } from '@app/database';

describe('the partial unique index on open attempts', () => {
  let db: DataSource;
  beforeAll(async () => {
    db = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
  });
  afterAll(async () => db.destroy());

  async function newCharge(): Promise<string> {
    const id = randomUUID();
    const [merchant] = await db.query<Array<{ id: string }>>(`INSERT INTO merchants (name) VALUES ($1) RETURNING id`, [`merchant-${id}`]);
    await db.getRepository(ChargeEntity).insert({
      id, merchantId: merchant.id, orderId: `order-${id}`, amountCents: 100, currency: 'usd', customerId: 'cus_1', paymentMethodId: null, provider: 'stripe', createdBy: 'test',
    });
    return id;
  }

  function openAttempt(chargeId: string, status: 'pending' | 'unknown' | 'failed' = 'pending'): AttemptEntity {
    return Object.assign(new AttemptEntity(), {
      id: randomUUID(), chargeId, idempotencyKey: randomUUID(), provider: 'stripe', status, payload: 'amount=100', payloadHash: 'a'.repeat(64), httpAttempts: 0,
    });
  }

  const insert = (attempt: AttemptEntity) => db.transaction((em) => em.insert(AttemptEntity, attempt));

  it('lets exactly one of two concurrent open attempts for one charge in', async () => {
    const chargeId = await newCharge();
    const results = await Promise.allSettled([insert(openAttempt(chargeId, 'pending')), insert(openAttempt(chargeId, 'unknown'))]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(isUniqueViolation(rejected.reason, 'uq_attempts_open_per_charge')).toBe(true);
    expect(await db.getRepository(AttemptEntity).countBy({ chargeId })).toBe(1);
  });

  it('allows any number of closed attempts beside the one open attempt', async () => {
    const chargeId = await newCharge();
    await insert(openAttempt(chargeId, 'failed'));
    await insert(openAttempt(chargeId, 'failed'));
    await insert(openAttempt(chargeId, 'pending'));
    expect(await db.getRepository(AttemptEntity).countBy({ chargeId })).toBe(3);
  });

  it('refuses a second succeeded attempt for one charge', async () => {
    const chargeId = await newCharge();
    const first = openAttempt(chargeId, 'failed');
    const second = openAttempt(chargeId, 'failed');
    await db.getRepository(AttemptEntity).insert([first, second]);
    // failed → succeeded is no transition of the state table (its trigger refuses it): with every trigger off, the
    // index alone still lets one through and refuses the second.
    const withoutTriggers = (sql: string, params: unknown[]) =>
      db.transaction(async (em) => {
        await em.query(`SET LOCAL session_replication_role = replica`);
        return em.query(sql, params);
      });
    await expect(db.query(`UPDATE attempts SET status = 'succeeded' WHERE id = $1`, [first.id])).rejects.toMatchObject({ driverError: { code: 'CO422' } });
    await withoutTriggers(`UPDATE attempts SET status = 'succeeded' WHERE id = $1`, [first.id]);
    await expect(withoutTriggers(`UPDATE attempts SET status = 'succeeded' WHERE id = $1`, [second.id])).rejects.toMatchObject({
      driverError: { code: '23505', constraint: 'uq_attempts_one_capture_per_charge' },
    });
  });
});
