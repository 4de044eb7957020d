import { createHash } from 'node:crypto';
import type pg from 'pg';
import { centsToValor } from '@app/gateways';
import { startEfiSimulator, startSimulator, type EfiSimulator, type Simulator } from '@app/simulator';

/** The day bench:reconcile reconciles, and how many lines of it are the provider's alone. */
export const day = '2026-11-15';
export const planted = 3;
const dayStart = Date.parse(`${day}T00:00:00Z`) / 1000;

/** What a day is made of: our side in the database, the provider's side at its simulator, and how the api reaches it. */
export interface Subject {
  provider: 'stripe' | 'efi';
  sources: ReadonlyArray<'report' | 'api'>;
  start(): Promise<{ env: Record<string, string>; plant(from: number, to: number, count: number): void; plantProviderOnly(): void; close(): Promise<void> }>;
  seed(db: pg.Pool, from: number, to: number, count: number): Promise<void>;
  /** Table counted to tell whether a reused database holds this day. */
  seededTable: string;
}

export const CHARGES: Subject = {
  provider: 'stripe',
  sources: ['report', 'api'],
  seededTable: `attempts WHERE operation = 'charge'`,
  async start() {
    const sim: Simulator = await startSimulator({ port: 0, controlPort: 0 });
    return {
      // The simulator's key: a made-up sk_test key with the default webhook secret is refused at boot.
      env: { STRIPE_API_BASE: sim.apiUrl, STRIPE_SECRET_KEY: 'sk_test_simulator' },
      plant(from, to, count) {
        const charges = [];
        for (let i = from; i <= to; i += 1) {
          charges.push({
            amount: 1000 + (i % 9000),
            created: dayStart + Math.floor(((i - 1) * 86400) / count),
            paymentIntentId: `pi_bench_${i}`,
            recordIntent: false,
            metadata: { attempt_id: uuidOf('a', i), charge_id: uuidOf('c', i) },
          });
        }
        sim.plantCharges(charges);
      },
      plantProviderOnly: () => sim.plantCharges(Array.from({ length: planted }, (_, i) => ({ amount: 777, created: dayStart + 3600 * (i + 1), recordIntent: false }))),
      close: () => sim.close(),
    };
  },
  seed: seedChargeAttempts,
};

export const PAYOUTS: Subject = {
  provider: 'efi',
  sources: ['api'],
  seededTable: `attempts WHERE operation = 'payout'`,
  async start() {
    const efi: EfiSimulator = await startEfiSimulator({ port: 0 });
    return {
      env: { EFI_API_BASE: efi.apiUrl, EFI_CLIENT_ID: 'efi_simulator_client', EFI_CLIENT_SECRET: 'efi_simulator_secret', EFI_PIX_KEY: 'payouts@charge-once.example' },
      plant(from, to, count) {
        const transfers = [];
        for (let i = from; i <= to; i += 1) {
          transfers.push({ idEnvio: uuidOf('a', i).replace(/-/g, ''), endToEndId: e2eOf(i), valor: centsToValor(1000 + (i % 9000)), requestedAt: new Date((dayStart + Math.floor(((i - 1) * 86400) / count)) * 1000) });
        }
        efi.plantTransfers(transfers);
      },
      plantProviderOnly: () =>
        efi.plantTransfers(Array.from({ length: planted }, (_, i) => ({ idEnvio: `foreign${i}`, endToEndId: e2eOf(10_000_000 + i), valor: '7.77', requestedAt: new Date((dayStart + 3600 * (i + 1)) * 1000) }))),
      close: () => efi.close(),
    };
  },
  seed: seedPayoutAttempts,
};

function uuidOf(tag: string, i: number): string {
  const h = createHash('md5').update(`${tag}${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Charges and succeeded attempts `from`..`to`; md5(tag || i)::uuid is the id the simulator side computes with uuidOf. */
async function seedChargeAttempts(db: pg.Pool, from: number, to: number, lines: number): Promise<void> {
  await db.query(
    `WITH merchant AS (
       INSERT INTO merchants (name) VALUES ('bench') ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id)
     INSERT INTO charges (id, merchant_id, order_id, amount_cents, currency, customer_id, provider, created_by)
     SELECT md5('c' || i)::uuid, (SELECT id FROM merchant), 'bench-reconcile-' || i, 1000 + i % 9000, 'usd', 'cus_bench', 'stripe', 'bench'
       FROM generate_series($1::int, $2::int) i`,
    [from, to],
  );
  await db.query(
    `INSERT INTO attempts (id, charge_id, idempotency_key, provider, status, provider_ref, payload, payload_hash, http_attempts, resolved_at, resolved_by, created_at)
     SELECT md5('a' || i)::uuid, md5('c' || i)::uuid, md5('k' || i)::uuid, 'stripe', 'succeeded', 'pi_bench_' || i, '', repeat('0', 64), 1, now(), 'submit',
            to_timestamp($3::double precision + floor((i - 1) * 86400.0 / $4))
       FROM generate_series($1::int, $2::int) i`,
    [from, to, dayStart, lines],
  );
}

/** Payouts and their succeeded attempts `from`..`to`, from one funded account; ids as the simulator side computes them. */
async function seedPayoutAttempts(db: pg.Pool, from: number, to: number, lines: number): Promise<void> {
  if (from === 1) {
    await db.query(`INSERT INTO merchants (name) VALUES ('bench') ON CONFLICT DO NOTHING`);
    await db.query(`INSERT INTO api_tokens (name, role, token_hash, merchant_id) SELECT 'bench-merchant', 'merchant', repeat('b', 64), id FROM merchants WHERE name = 'bench' ON CONFLICT DO NOTHING`);
    await db.query(
      `INSERT INTO ledger_accounts (id, owner_token_name, merchant_id, currency, created_by)
       SELECT md5('account')::uuid, 'bench-merchant', id, 'brl', 'bench' FROM merchants WHERE name = 'bench' ON CONFLICT DO NOTHING`,
    );
  }
  await db.query(
    `INSERT INTO payouts (id, account_id, amount_cents, currency, provider, pix_key, pix_key_type, created_by)
     SELECT md5('p' || i)::uuid, md5('account')::uuid, 1000 + i % 9000, 'brl', 'efi', 'payee@example.com', 'email', 'bench'
       FROM generate_series($1::int, $2::int) i`,
    [from, to],
  );
  await db.query(
    `INSERT INTO attempts (id, payout_id, operation, idempotency_key, provider, status, provider_ref, payload, payload_hash, http_attempts, resolved_at, resolved_by, created_at)
     SELECT md5('a' || i)::uuid, md5('p' || i)::uuid, 'payout', md5('k' || i)::uuid, 'efi', 'succeeded', 'E09089356' || lpad(i::text, 23, '0'), '', repeat('0', 64), 1, now(), 'submit',
            to_timestamp($3::double precision + floor((i - 1) * 86400.0 / $4))
       FROM generate_series($1::int, $2::int) i`,
    [from, to, dayStart, lines],
  );
}

/** A BACEN-shaped end-to-end id, the one seedPayoutAttempts stores for payout i. */
function e2eOf(i: number): string {
  return `E09089356${String(i).padStart(23, '0')}`;
}
