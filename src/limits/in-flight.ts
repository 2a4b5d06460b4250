// Caps on work in flight per key (deliveries per destination), shared by every worker process when
// Redis or PostgreSQL holds them. A slot expires by itself after `holdMs`, so a process that dies
// holding one does not block its key for good; on PostgreSQL it is free at once, as the session
// that stands for its process is gone (holder-session.ts).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import type { HolderSession } from './holder-session.ts';
import { FALLBACK, PATIENT_TIMEOUT_MS, type RedisBreaker } from './redis-breaker.ts';

export type Release = () => Promise<void>;

export interface InFlightSlots {
  /** A slot of `key`, released by the returned function; null when `max` are taken. */
  take(key: string, max: number, holdMs: number): Promise<Release | null>;
}

export function memorySlots(): InFlightSlots {
  const taken = new Map<string, number>();
  return {
    async take(key, max) {
      const busy = taken.get(key) ?? 0;
      if (busy >= max) return null;
      taken.set(key, busy + 1);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const left = (taken.get(key) ?? 1) - 1;
        if (left > 0) taken.set(key, left);
        else taken.delete(key);
      };
    },
  };
}

// A sorted set per key, scored by expiry on Redis's own clock (the processes' clocks may differ).
const TAKE_SLOT = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

export function redisSlots(redis: Redis, prefix: string): InFlightSlots {
  return {
    async take(key, max, holdMs) {
      const redisKey = `${prefix}slots:${key}`;
      const token = randomUUID();
      const took = await redis.eval(TAKE_SLOT, 1, redisKey, max, holdMs, token);
      if (took !== 1) return null;
      return async () => {
        await redis.zrem(redisKey, token);
      };
    },
  };
}

export function postgresSlots(db: Db, holders: HolderSession): InFlightSlots {
  return {
    async take(key, max, holdMs) {
      const token = randomUUID();
      const holder = await holders.identity();
      const took = await db.transaction().execute(async (tx) => {
        // Counting and taking are one step for each key: concurrent takers of a key wait here.
        await sql`select pg_advisory_xact_lock(hashtextextended(${`intake-slot:${key}`}, 0))`.execute(tx);
        // Gone: past its hold time, or held by a session that has closed (backend_start is hidden
        // from other roles: then the pid alone says the session lives).
        await sql`delete from in_flight_slots s where s.key = ${key} and (s.expires_at <= now() or (s.holder_pid is not null and not exists (
            select 1 from pg_stat_activity a where a.pid = s.holder_pid and (a.backend_start is null or a.backend_start = s.holder_start))))`.execute(tx);
        const { count } = await tx.selectFrom('in_flight_slots').select((eb) => eb.fn.countAll<string>().as('count')).where('key', '=', key).executeTakeFirstOrThrow();
        if (Number(count) >= max) return false;
        await tx.insertInto('in_flight_slots').values({
          key, token, expires_at: sql<string>`now() + make_interval(secs => ${holdMs / 1000})`,
          holder_pid: holder.pid, holder_start: sql<string>`${holder.start}::timestamptz`,
        }).execute();
        return true;
      });
      if (!took) return null;
      return async () => {
        await db.deleteFrom('in_flight_slots').where('key', '=', key).where('token', '=', token).execute();
      };
    },
  };
}

/**
 * Slots in Redis while the breaker lets commands through; in this process's memory for a take
 * whose Redis command failed or was never sent. A slot is released where it was taken; a Redis
 * release that fails leaves the slot to expire after its hold time.
 */
export function breakerSlots(breaker: RedisBreaker, prefix: string): InFlightSlots {
  const shared = redisSlots(breaker.redis, prefix);
  const local = memorySlots();
  return {
    async take(key, max, holdMs) {
      const release = await breaker.run(() => shared.take(key, max, holdMs), PATIENT_TIMEOUT_MS);
      if (release !== FALLBACK) return release && (() => breaker.run(release, PATIENT_TIMEOUT_MS).then(() => {}));
      return local.take(key, max, holdMs);
    },
  };
}
