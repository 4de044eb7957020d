import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { narrowOffset, querySpacingMs, slotStillUsable, type ClockOffset } from './rules/query-pacing.js';
import { QuerySlot } from './query-slot.js';
import { createRedisClient, type RedisClient } from './redis-connection.factory.js';

/**
 * Hands out the next slot of a provider's budget by Redis's clock: the later of now and the last slot plus the
 * spacing (ARGV[1] ms). Returns the slot and Redis's now, in milliseconds, as strings (Lua numbers lose decimals).
 */
const RESERVE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local following = slot + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.3f', following), 'PX', math.ceil(following - now) + 1000)
return { string.format('%.3f', slot), string.format('%.3f', now) }`;

/**
 * Each provider's query budget (`queryRatePerSecond`), shared by every worker process through Redis: a query is sent
 * at its slot, slots are spaced so that no sliding second at the provider holds more than the budget (see
 * `querySpacingMs`), and a slot a stalled process could not use in time is given up, never spent late.
 */
@Injectable()
export class ProviderQueryPacer implements OnModuleDestroy {
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private offset: ClockOffset | null = null;

  constructor(config: AppConfig) {
    // Connected on the first slot asked for: the api holds this module (for AttemptJobs) but sends no query.
    this.redis = createRedisClient(config, { lazyConnect: true });
    // A lost connection fails the slot's command, which its job retries; the event itself is not news.
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('reserveQuerySlot', { numberOfKeys: 1, lua: RESERVE_SLOT });
    // One key per provider and one key per script: correct on a Cluster in any slot (the prefix puts it in the queues').
    this.prefix = `${config.QUEUE_PREFIX}:query-pace:`;
  }

  /**
   * Resolves when this process may send one query to `provider`, with the slot's gate: the query may still be held
   * up between here and its socket, so the HTTP client asks the gate again right before writing it.
   */
  async take(provider: string, perSecond: number): Promise<QuerySlot> {
    const spacing = querySpacingMs(perSecond);
    for (;;) {
      const askedAt = performance.now();
      const [slot, redisNow] = (await (this.redis as RedisWithSlots).reserveQuerySlot(this.prefix + provider, spacing)).map(Number);
      this.offset = narrowOffset(this.offset, { askedAt, heardAt: performance.now(), redisNow });
      // Never before the slot: its local time is at least slot - hi, at most slot - lo.
      const earliest = slot - this.offset.lo;
      // A timer may fire a little early (it counts from the event loop's cached time): wait out what is left.
      for (let wait = earliest - performance.now(); wait > 0; wait = earliest - performance.now()) await sleep(wait);
      const localSlot = slot - this.offset.hi;
      if (slotStillUsable(performance.now() - localSlot)) return new QuerySlot(localSlot);
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}

type RedisWithSlots = RedisClient & { reserveQuerySlot(key: string, spacingMs: number): Promise<[string, string]> };
