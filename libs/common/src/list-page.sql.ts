import type { CreatedRange, ListPosition } from './list-page.js';

/**
 * The WHERE and ORDER BY of one keyset page, newest first, on the columns of the index that serves it. Values go
 * in as parameters (appended to `params`); the cursor's instant is rebuilt in microseconds, exactly, so two rows
 * created in one millisecond are never skipped or repeated.
 */
export function keysetSql(createdAt: string, id: string, position: ListPosition | null, range: CreatedRange, params: unknown[]): { where: string[]; orderBy: string } {
  const where: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (position) where.push(`(${createdAt}, ${id}) < (timestamptz 'epoch' + ${param(position.createdAtMicros)}::bigint * interval '1 microsecond', ${param(position.id)}::uuid)`);
  if (range.from) where.push(`${createdAt} >= ${param(range.from.toISOString())}::timestamptz`);
  if (range.to) where.push(`${createdAt} < ${param(range.to.toISOString())}::timestamptz`);
  return { where, orderBy: `${createdAt} DESC, ${id} DESC` };
}

/** The row's position for its cursor: created_at in microseconds since the epoch, as text (exact). */
export const positionSql = (createdAt: string): string => `(extract(epoch FROM ${createdAt}) * 1000000)::bigint::text AS at_us`;
