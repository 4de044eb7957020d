import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { LongPollCapacityError } from './long-poll.errors.js';
import { ObjectWaiter } from './object-waiter.js';

/**
 * The long polls waiting in this process, by object (`charge:<id>`), at most LONG_POLL_MAX_WAITERS of them: each holds
 * a socket and, when woken, a database read, so past the bound a request is refused (429) rather than queued.
 */
@Injectable()
export class ObjectWaiters implements OnModuleDestroy {
  private readonly byKey = new Map<string, Set<ObjectWaiter>>();
  private count = 0;
  private closing = false;
  private readonly max: number;

  constructor(config: AppConfig) {
    this.max = config.LONG_POLL_MAX_WAITERS;
  }

  get size(): number {
    return this.count;
  }

  register(key: string): ObjectWaiter {
    if (this.count >= this.max) throw new LongPollCapacityError(this.max);
    const waiter = new ObjectWaiter(key);
    const set = this.byKey.get(key) ?? new Set();
    this.byKey.set(key, set.add(waiter));
    this.count += 1;
    if (this.closing) waiter.notify('closing');
    return waiter;
  }

  remove(waiter: ObjectWaiter): void {
    const set = this.byKey.get(waiter.key);
    if (!set?.delete(waiter)) return;
    this.count -= 1;
    if (set.size === 0) this.byKey.delete(waiter.key);
  }

  /** An event of this object committed: its waiters read it again. */
  notify(key: string): void {
    for (const waiter of this.byKey.get(key) ?? []) waiter.notify();
  }

  /** Notifications may have been lost (the listening connection was down): every waiter reads again. */
  notifyAll(): void {
    for (const set of this.byKey.values()) for (const waiter of set) waiter.notify();
  }

  /** Shutting down: every waiter answers what it last read instead of holding the process open. */
  onModuleDestroy(): void {
    this.closing = true;
    for (const set of this.byKey.values()) for (const waiter of set) waiter.notify('closing');
  }
}
