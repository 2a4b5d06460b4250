// Counters that several processes share, on the backend the configuration allows: Redis when
// REDIS_URL is set, else PostgreSQL when that is the database, else this process's memory (the
// embedded SQLite default, usually one process).
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { holderSession } from './holder-session.ts';
import { breakerSlots, memorySlots, postgresSlots, type InFlightSlots } from './in-flight.ts';
import { breakerRateLimitStore, postgresRateLimitStore, type RateLimitBackend } from './rate-limit-stores.ts';
import { RedisBreaker, type BreakerLog, type FallbackStatus } from './redis-breaker.ts';

export interface SharedLimits {
  backend: 'redis' | 'postgres' | 'memory';
  rateLimits: RateLimitBackend;
  slots: InFlightSlots;
  /** Redis: whether this process's memory stands in for it now; null for the other backends. */
  fallback(): FallbackStatus | null;
  /** Where the Redis breaker logs the fallback's start and end. */
  useLog(log: BreakerLog): void;
  /** Redis: resolves once it answers or after `timeoutMs`, so a process starts with the shared counters. */
  ready(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const NOTHING_TO_WAIT_FOR = { fallback: () => null, useLog: () => {}, ready: async () => {}, close: async () => {} };

export function sharedLimitsFor(config: Config, database: Database): SharedLimits {
  if (config.redis) {
    // Short command timeouts and a breaker (redis-breaker.ts): a Redis that is down or slow costs a
    // request tens of milliseconds, and after a few failures in a row nothing at all.
    const breaker = new RedisBreaker(config.redis);
    const slots = breakerSlots(breaker, config.redis.prefix);
    return {
      backend: 'redis',
      rateLimits: { kind: 'redis', store: breakerRateLimitStore(breaker), prefix: config.redis.prefix },
      slots,
      fallback: () => breaker.status(),
      useLog: (log) => breaker.useLog(log),
      ready: (timeoutMs) => breaker.ready(timeoutMs),
      close: () => {
        // Slots still held (none once the workers have stopped) lapse within their lease.
        slots.stopRenewing();
        return breaker.close();
      },
    };
  }
  if (database.engine === 'postgres') {
    // Opened by the first slot taken (a delivery), so an API-only process has no extra connection.
    const holders = holderSession(database.pgPool!);
    return {
      backend: 'postgres', rateLimits: { kind: 'postgres', store: postgresRateLimitStore(database.db) }, slots: postgresSlots(database.db, holders),
      ...NOTHING_TO_WAIT_FOR, close: () => holders.close(),
    };
  }
  return { backend: 'memory', rateLimits: { kind: 'memory' }, slots: memorySlots(), ...NOTHING_TO_WAIT_FOR };
}
