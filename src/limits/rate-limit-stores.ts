// Where @fastify/rate-limit keeps its counters. In memory they hold for one process; in Redis or
// PostgreSQL every API process behind a proxy counts against the same window. Redis sits behind a
// circuit breaker: while it does not answer, each process counts in its own memory.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Db } from '../db/database.ts';
import { GroupCommit } from '../db/group-commit.ts';
import { statement } from '../db/statement.ts';
import { FALLBACK, type RedisBreaker } from './redis-breaker.ts';

/** What a rate-limit zone registers with: the plugin's Redis option or its custom store option; neither for memory. */
export type RateLimitBackend =
  | { kind: 'memory' }
  | { kind: 'redis'; store: (nameSpace: string) => FastifyRateLimitStoreCtor; prefix: string }
  | { kind: 'postgres'; store: (nameSpace: string) => FastifyRateLimitStoreCtor };

interface Hit {
  current: number;
  ttl: number;
}
type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
/** What the plugin really hands child(): the route's merged settings with its method and URL (its types say otherwise). */
type ChildOptions = { routeInfo?: { method?: string; url?: string } };

/** How often, at most, a process clears windows that ended (they are reset in place when hit again). */
const SWEEP_MS = 60_000;

interface Counted {
  key: string;
  windowMs: number;
}

/** One statement for a batch of hits; prepared once per connection (statement.ts), as it runs with every request. */
const countHits = statement((_db, p: { keys: string[]; hits: number[]; windows: number[] }) => sql<{ key: string; count: number; ttl: number }>`
  insert into rate_limit_counters as c (key, count, expires_at)
  select t.key, t.n, now() + make_interval(secs => t.window_s)
  from unnest(${p.keys}::text[], ${p.hits}::integer[], ${p.windows}::float8[]) as t(key, n, window_s)
  on conflict (key) do update set
    count = case when c.expires_at <= now() then excluded.count else c.count + excluded.count end,
    expires_at = case when c.expires_at <= now() then excluded.expires_at else c.expires_at end
  returning c.key, c.count, ceil(extract(epoch from (c.expires_at - now())) * 1000)::integer as ttl`);

/**
 * Counts requests in fixed windows that start with the first request, like the plugin's own stores.
 * The hits of one event-loop turn go to PostgreSQL as one statement, a row per key with its number
 * of hits, keys in sorted order so that two processes' batches never deadlock on each other.
 */
export function postgresRateLimitStore(db: Db): (nameSpace: string) => FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  const hits = new GroupCommit<Counted, Hit>(
    async (batch) => {
      const perKey = new Map<string, { n: number; windowMs: number }>();
      for (const { key, windowMs } of batch) {
        const entry = perKey.get(key);
        if (entry) entry.n++;
        else perKey.set(key, { n: 1, windowMs });
      }
      const keys = [...perKey.keys()].sort();
      const { rows } = await countHits(db, { keys, hits: keys.map((k) => perKey.get(k)!.n), windows: keys.map((k) => perKey.get(k)!.windowMs / 1000) });
      if (Date.now() - lastSweep > SWEEP_MS) {
        lastSweep = Date.now();
        void sql`delete from rate_limit_counters where expires_at < now()`.execute(db).catch(() => {});
      }
      // Each hit of a key gets the count it made: the batch's first of a key the lowest.
      const after = new Map(rows.map((r) => [r.key, { count: r.count, ttl: Math.max(0, r.ttl) }]));
      const seen = new Map<string, number>();
      return batch.map(({ key }) => {
        const row = after.get(key)!;
        const index = seen.get(key) ?? 0;
        seen.set(key, index + 1);
        return { current: row.count - perKey.get(key)!.n + index + 1, ttl: row.ttl };
      });
    },
    { maxBatch: 500, maxConcurrent: 2 },
  );

  return (nameSpace) =>
    class PostgresRateLimitStore implements FastifyRateLimitStore {
      readonly prefix: string;
      // The plugin constructs a store with its options; a route's own settings make a child.
      constructor(_params?: unknown, prefix: string = nameSpace) {
        this.prefix = prefix;
      }
      incr(key: string, callback: Callback, timeWindow: number): void {
        hits.write({ key: this.prefix + key, windowMs: timeWindow }).then((result) => callback(null, result), (error: Error) => callback(error));
      }
      child(routeOptions: object): FastifyRateLimitStore {
        const { routeInfo } = routeOptions as ChildOptions;
        return new PostgresRateLimitStore(undefined, `${this.prefix}${routeInfo?.method}${routeInfo?.url}-`);
      }
    };
}

interface PluginParams {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

/**
 * The plugin's Redis store while the breaker lets commands through, its memory store for a request
 * whose Redis command failed or was never sent. Counts made in memory stay there: while the
 * fallback is in force, each process holds each client to the limit on its own.
 */
export function breakerRateLimitStore(breaker: RedisBreaker): (nameSpace: string) => FastifyRateLimitStoreCtor {
  return (nameSpace) =>
    class BreakerRateLimitStore implements FastifyRateLimitStore {
      readonly shared: FastifyRateLimitStore;
      readonly local: FastifyRateLimitStore;
      constructor(params?: PluginParams, pair?: { shared: FastifyRateLimitStore; local: FastifyRateLimitStore }) {
        this.shared = pair?.shared ?? new RedisStore(params?.continueExceeding ?? false, params?.exponentialBackoff ?? false, breaker.redis, nameSpace);
        this.local = pair?.local ?? new LocalStore(params?.continueExceeding ?? false, params?.exponentialBackoff ?? false);
      }
      incr(key: string, callback: Callback, timeWindow: number, max: number): void {
        const inRedis = () =>
          new Promise<Hit>((resolve, reject) => this.shared.incr(key, (error, hit) => (error || !hit ? reject(error) : resolve(hit)), timeWindow, max));
        void breaker.run(inRedis).then((hit) => (hit === FALLBACK ? this.local.incr(key, callback, timeWindow, max) : callback(null, hit)));
      }
      child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
        return new BreakerRateLimitStore(undefined, { shared: this.shared.child(routeOptions), local: this.local.child(routeOptions) });
      }
    };
}
