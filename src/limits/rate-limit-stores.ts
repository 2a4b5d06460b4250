// Where @fastify/rate-limit keeps its counters. In memory they hold for one process; in Redis or
// PostgreSQL every API process behind a proxy counts against the same window.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';

/** What a rate-limit zone registers with: the plugin's Redis option or its custom store option; neither for memory. */
export type RateLimitBackend =
  | { kind: 'memory' }
  | { kind: 'redis'; redis: Redis; prefix: string }
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

/** Counts one request in a fixed window that starts with the first request, like the plugin's own stores. */
export function postgresRateLimitStore(db: Db): (nameSpace: string) => FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  async function hit(key: string, windowMs: number): Promise<Hit> {
    const { rows } = await sql<{ count: number; ttl: number }>`
      insert into rate_limit_counters as c (key, count, expires_at)
      values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
      on conflict (key) do update set
        count = case when c.expires_at <= now() then 1 else c.count + 1 end,
        expires_at = case when c.expires_at <= now() then excluded.expires_at else c.expires_at end
      returning count, ceil(extract(epoch from (expires_at - now())) * 1000)::integer as ttl`.execute(db);
    if (Date.now() - lastSweep > SWEEP_MS) {
      lastSweep = Date.now();
      void sql`delete from rate_limit_counters where expires_at < now()`.execute(db).catch(() => {});
    }
    const row = rows[0]!;
    return { current: row.count, ttl: Math.max(0, row.ttl) };
  }

  return (nameSpace) =>
    class PostgresRateLimitStore implements FastifyRateLimitStore {
      readonly prefix: string;
      // The plugin constructs a store with its options; a route's own settings make a child.
      constructor(_params?: unknown, prefix: string = nameSpace) {
        this.prefix = prefix;
      }
      incr(key: string, callback: Callback, timeWindow: number): void {
        hit(this.prefix + key, timeWindow).then((result) => callback(null, result), (error: Error) => callback(error));
      }
      child(routeOptions: object): FastifyRateLimitStore {
        const { routeInfo } = routeOptions as ChildOptions;
        return new PostgresRateLimitStore(undefined, `${this.prefix}${routeInfo?.method}${routeInfo?.url}-`);
      }
    };
}
