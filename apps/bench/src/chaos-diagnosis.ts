import type pg from 'pg';
import { createRedisClient, type RedisClient } from '@app/queues';

/**
 * What a stuck attempt went through, printed when the storm does not quiet down: its row, its transitions, its
 * provider calls, its review items, and where its reminders sit in Redis (a job in `active` that never ends, or
 * in `failed`, blocks the sweeper's re-creation under the same job id). Enough to find the cause after the run's
 * embedded database is gone.
 */
export async function describeStuckAttempts(db: pg.Pool, redisUrl: string, prefix: string, chargeIds: string[], limit = 3): Promise<string[]> {
  const { rows: stuck } = await db.query<Record<string, unknown>>(
    `SELECT a.id, a.charge_id, a.status, a.resolution_tries, a.http_attempts, a.provider_ref AS provider_charge_id, a.last_error,
            a.lease_expires_at, a.next_send_at, a.last_sent_at, a.last_send_ended_at, a.updated_at, now() AS db_now
       FROM attempts a WHERE a.charge_id = ANY($1) AND a.operation = 'charge'
        AND (a.status = 'pending' OR (a.status = 'unknown' AND NOT EXISTS (SELECT 1 FROM review_items r WHERE r.attempt_id = a.id AND r.state <> 'closed')))
      ORDER BY a.updated_at LIMIT ${limit}`,
    [chargeIds],
  );
  const lines: string[] = [];
  const redis = createRedisClient({ REDIS_URL: redisUrl });
  try {
    for (const attempt of stuck) {
      lines.push(`attempt ${JSON.stringify(attempt)}`);
      const { rows: transitions } = await db.query(`SELECT from_status, to_status, cause, actor, detail, at FROM attempt_transitions WHERE attempt_id = $1 ORDER BY at, id`, [attempt.id]);
      for (const t of transitions) lines.push(`  transition ${JSON.stringify(t)}`);
      const { rows: calls } = await db.query(`SELECT kind, outcome, http_status, duration_ms, detail, at FROM provider_calls WHERE attempt_id = $1 ORDER BY at, id`, [attempt.id]);
      for (const c of calls) lines.push(`  call ${JSON.stringify(c)}`);
      const { rows: items } = await db.query(`SELECT reason, state FROM review_items WHERE attempt_id = $1`, [attempt.id]);
      for (const i of items) lines.push(`  review ${JSON.stringify(i)}`);
      lines.push(...(await jobsOf(redis, prefix, String(attempt.id))));
    }
  } finally {
    redis.disconnect();
  }
  return lines;
}

async function jobsOf(redis: RedisClient, prefix: string, attemptId: string): Promise<string[]> {
  const lines: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*:*${attemptId}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const queueKey = key.slice(0, key.lastIndexOf(':', key.lastIndexOf(':', key.lastIndexOf(':') - 1) - 1));
      const jobId = key.slice(queueKey.length + 1);
      const where = await Promise.all([
        redis.lpos(`${queueKey}:active`, jobId).then((p) => (p === null ? null : 'active')),
        redis.lpos(`${queueKey}:wait`, jobId).then((p) => (p === null ? null : 'wait')),
        redis.zscore(`${queueKey}:delayed`, jobId).then((s) => (s === null ? null : `delayed(${s})`)),
        redis.zscore(`${queueKey}:failed`, jobId).then((s) => (s === null ? null : 'failed')),
        redis.zscore(`${queueKey}:completed`, jobId).then((s) => (s === null ? null : 'completed')),
      ]);
      const hash = await redis.hgetall(key).catch(() => ({}));
      lines.push(`  job ${key} in ${where.filter(Boolean).join(',') || 'no list'} ${JSON.stringify({ ...hash, data: undefined, stacktrace: undefined })}`);
    }
  } while (cursor !== '0');
  return lines.length ? lines : ['  no job in Redis'];
}
