// Counters that several processes share, on the backend the configuration allows: Redis when
// REDIS_URL is set, else PostgreSQL when that is the database, else this process's memory (the
// embedded SQLite default, usually one process).
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { memorySlots, postgresSlots, redisSlots, type InFlightSlots } from './in-flight.ts';
import { postgresRateLimitStore, type RateLimitBackend } from './rate-limit-stores.ts';

export interface SharedLimits {
  backend: 'redis' | 'postgres' | 'memory';
  rateLimits: RateLimitBackend;
  slots: InFlightSlots;
  close(): Promise<void>;
}

export function sharedLimitsFor(config: Config, database: Database): SharedLimits {
  if (config.redis) {
    const redis = new Redis(config.redis.url, {
      // A Redis that is down must not hold requests: commands fail after a second, and rate
      // limits then let requests through (the plugin's skipOnError) until it is back.
      commandTimeout: 1_000,
      maxRetriesPerRequest: 1,
    });
    // ioredis reconnects by itself; without a listener it would print every failed attempt.
    redis.on('error', () => {});
    return {
      backend: 'redis',
      rateLimits: { kind: 'redis', redis, prefix: config.redis.prefix },
      slots: redisSlots(redis, config.redis.prefix),
      close: async () => {
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  if (database.engine === 'postgres') {
    return { backend: 'postgres', rateLimits: { kind: 'postgres', store: postgresRateLimitStore(database.db) }, slots: postgresSlots(database.db), close: async () => {} };
  }
  return { backend: 'memory', rateLimits: { kind: 'memory' }, slots: memorySlots(), close: async () => {} };
}
