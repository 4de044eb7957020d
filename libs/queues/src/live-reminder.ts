import type { JobOptions, Queue } from 'bull';

type ReminderOptions = JobOptions & { jobId: string };

/**
 * Adds a reminder unless one with its job id is live (waiting, delayed, active or paused). Bull's `add` is a
 * no-op for any id whose job hash exists, so a hash that survived a partial loss of Redis keys while the list
 * that held it did not (an eviction, a purge racing writes) would block the reminder forever: the sweeper would
 * "re-create" it every tick and nothing would ever run. That orphan, and a finished job kept by mistake, is removed
 * first. One MULTI reads every list at once, so a job moving between lists is never seen in none of them.
 */
export async function addUnlessLive<T>(queue: Queue<T>, data: T, options: ReminderOptions): Promise<void> {
  const { jobId } = options;
  const replies = (await queue.client
    .multi()
    .exists(queue.toKey(jobId))
    .zscore(queue.toKey('delayed'), jobId)
    .lpos(queue.toKey('active'), jobId)
    .lpos(queue.toKey('wait'), jobId)
    .lpos(queue.toKey('paused'), jobId)
    .exec()) as Array<[Error | null, unknown]>;
  // A command Redis refused (LPOS needs 6.0.6) proves nothing: take the job for live rather than add it twice.
  if (replies.some(([error]) => error)) return;
  const [[, exists], ...where] = replies;
  const live = where.some(([, position]) => position !== null);
  if (exists === 1 && live) return;
  // A lock means a worker holds it this instant (it is being moved to active): leave it, the next sweep looks again.
  if (exists === 1 && (await queue.client.exists(`${queue.toKey(jobId)}:lock`)) === 1) return;
  if (exists === 1) await queue.client.del(queue.toKey(jobId), `${queue.toKey(jobId)}:logs`);
  await queue.add(data, options);
}
