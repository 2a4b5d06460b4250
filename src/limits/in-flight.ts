// Caps on work in flight per key (deliveries per destination), shared by every worker process when
// Redis or PostgreSQL holds them. A slot expires by itself after `holdMs` at the latest, so a process
// that dies holding one does not block its key for good; it is free much sooner: on PostgreSQL at
// once, as the session that stands for its process is gone (holder-session.ts), and in Redis within
// a short lease that only a living holder renews (SLOT_LEASE_MS).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import { sessionLives } from '../db/own-session.ts';
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

/**
 * How long a Redis slot lives unless the process holding it renews it (every third of this, so two
 * renewals in a row may fail, to a slow or reconnecting Redis or a busy event loop, before a held
 * slot lapses). A process that dies stops renewing, so its destination is free again within this,
 * not after the whole hold time (45 s by default), as PostgreSQL frees it at once (holder-session.ts).
 */
export const SLOT_LEASE_MS = 10_000;

// A sorted set per key, scored by expiry on Redis's own clock (the processes' clocks may differ). A
// slot is taken for its lease and answered with Redis's time, from which its taker counts the hold
// time it may never outlive. The key lives as long as its longest slot: its expiry is only lengthened
// (a process of an older version, during a rolling deploy, scores its slots the whole hold time ahead).
const REDIS_NOW_MS = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)`;
const LENGTHEN_KEY = (ms: string) => `
if redis.call('PTTL', KEYS[1]) < ${ms} then redis.call('PEXPIRE', KEYS[1], ${ms}) end`;

const TAKE_SLOT = `${REDIS_NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[3])${LENGTHEN_KEY('tonumber(ARGV[2])')}
return nowMs`;

// ARGV: the lease, then each held slot's token and the Redis time its hold ends. A slot is renewed
// only while it is still live (one that lapsed may be counted free by another taker already), never
// past its hold's end; the tokens not renewed are answered, for the holder to stop renewing.
const RENEW_SLOTS = `${REDIS_NOW_MS}
local lease = tonumber(ARGV[1])
local lapsed = {}
for i = 2, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  local holdEnds = tonumber(ARGV[i + 1])
  if score and tonumber(score) > nowMs and holdEnds > nowMs then
    redis.call('ZADD', KEYS[1], 'XX', math.min(nowMs + lease, holdEnds), ARGV[i])
  else
    table.insert(lapsed, ARGV[i])
  end
end
if #lapsed * 2 < #ARGV - 1 then${LENGTHEN_KEY('lease')} end
return lapsed`;

/** Slots whose holder renews them; `stopRenewing` ends that (the app closes), leaving them to lapse. */
export interface LeasedSlots extends InFlightSlots {
  stopRenewing(): void;
}

/** Sends a command to Redis: as it is, or through the breaker (which may answer FALLBACK instead). */
type OnRedis = <T>(command: (redis: Redis) => Promise<T>) => Promise<T | typeof FALLBACK>;

/** The Redis slots with their renewals; a take answers FALLBACK where `onRedis` did. */
function leasedRedisSlots(onRedis: OnRedis, prefix: string, leaseMs: number) {
  /** The slots this process holds: Redis key -> token -> the Redis time its hold ends. */
  const held = new Map<string, Map<string, number>>();
  // One timer for all the process's slots, running only while it holds one; unref'd, so that it
  // never keeps a process alive.
  let timer: NodeJS.Timeout | null = null;
  let renewing = false;

  function forget(redisKey: string, token: string): void {
    const tokens = held.get(redisKey);
    tokens?.delete(token);
    if (tokens?.size === 0) held.delete(redisKey);
    if (held.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  async function renewKey(redisKey: string, tokens: Map<string, number>): Promise<void> {
    const args = [...tokens].flatMap(([token, holdEnds]) => [token, holdEnds]);
    const lapsed = await onRedis((redis) => redis.eval(RENEW_SLOTS, 1, redisKey, leaseMs, ...args));
    // FALLBACK (the breaker is open, or Redis did not answer): tried again at the next turn.
    if (Array.isArray(lapsed)) for (const token of lapsed) forget(redisKey, String(token));
  }

  async function renewAll(): Promise<void> {
    // A turn that outlasts the interval (Redis slow) is not piled on by the next.
    if (renewing) return;
    renewing = true;
    try {
      await Promise.all([...held].map(([redisKey, tokens]) => renewKey(redisKey, tokens).catch(() => {})));
    } finally {
      renewing = false;
    }
  }

  return {
    async take(key: string, max: number, holdMs: number): Promise<Release | null | typeof FALLBACK> {
      const redisKey = `${prefix}slots:${key}`;
      const token = randomUUID();
      const takenAt = await onRedis((redis) => redis.eval(TAKE_SLOT, 1, redisKey, max, Math.min(leaseMs, holdMs), token));
      if (takenAt === FALLBACK) return FALLBACK;
      if (typeof takenAt !== 'number' || takenAt === 0) return null;
      // Renewed only once the take has answered: a take given up on (past the breaker's deadline)
      // that Redis counted after all is left to lapse within its lease.
      const tokens = held.get(redisKey) ?? new Map<string, number>();
      held.set(redisKey, tokens.set(token, takenAt + holdMs));
      if (!timer) {
        timer = setInterval(() => void renewAll(), Math.max(10, Math.floor(leaseMs / 3)));
        timer.unref();
      }
      return async () => {
        // Not renewed from now on, even if the release fails: the slot lapses within its lease.
        forget(redisKey, token);
        await onRedis((redis) => redis.zrem(redisKey, token));
      };
    },
    stopRenewing(): void {
      held.clear();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

/** Slots in Redis; a Redis that fails throws (the delivery then sends without the cap). */
export function redisSlots(redis: Redis, prefix: string, leaseMs = SLOT_LEASE_MS): LeasedSlots {
  const slots = leasedRedisSlots((command) => command(redis), prefix, leaseMs);
  return {
    // Sent as they are, commands never answer FALLBACK.
    take: async (key, max, holdMs) => {
      const release = await slots.take(key, max, holdMs);
      return release === FALLBACK ? null : release;
    },
    stopRenewing: slots.stopRenewing,
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
        // Gone: past its hold time, or held by a session that has closed.
        await sql`delete from in_flight_slots s where s.key = ${key}
          and (s.expires_at <= now() or (s.holder_pid is not null and not ${sessionLives('s.holder_pid', 's.holder_start')}))`.execute(tx);
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
 * release that fails, or renewals the breaker holds back, leave the slot to lapse within its lease.
 */
export function breakerSlots(breaker: RedisBreaker, prefix: string, leaseMs = SLOT_LEASE_MS): LeasedSlots {
  const shared = leasedRedisSlots((command) => breaker.run(command, PATIENT_TIMEOUT_MS), prefix, leaseMs);
  const local = memorySlots();
  return {
    async take(key, max, holdMs) {
      const release = await shared.take(key, max, holdMs);
      if (release !== FALLBACK) return release;
      return local.take(key, max, holdMs);
    },
    stopRenewing: shared.stopRenewing,
  };
}
