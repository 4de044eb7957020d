/**
 * Polls a condition that other processes (queue jobs, webhooks) will make true. This is not a sleep past
 * a race: it returns as soon as the state is reached and fails loudly with the last value seen.
 */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    last = await read();
  }
  return last;
}
