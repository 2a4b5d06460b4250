// A database session of the process's own: one connection outside the pool, opened on first use and
// again after it is lost, so that it lives exactly as long as the process (or until it is cut off). A
// process that dies (SIGKILL, OOM) takes it with it, and PostgreSQL sees that at once: other processes
// read in pg_stat_activity that it is gone (sessionLives). Worker leases (src/jobs/graphile-queue.ts)
// and in-flight slots (src/limits/holder-session.ts) name their process by such a session.
import { sql, type RawBuilder } from 'kysely';
import type pg from 'pg';
import { loadPg } from './pg.ts';

export interface OwnSession<T> {
  /**
   * The open session and what `prepare` answered when it opened; opened first when there is none
   * (the first use, or after the last was lost or closed). `lost` hears of the error that ends the
   * session opened by this call.
   */
  open(lost?: (error: Error) => void): Promise<{ client: pg.Client; prepared: T }>;
  /** Ends the session; a later `open` opens a new one. */
  close(): Promise<void>;
}

/** `prepare` runs on each new session before it is used (to read its identity, say). */
export function ownSession<T>(pool: pg.Pool, prepare: (client: pg.Client) => Promise<T>): OwnSession<T> {
  let current: Promise<{ client: pg.Client; prepared: T }> | null = null;
  return {
    open(lost) {
      current ??= (async () => {
        const client = new (loadPg().Client)(pool.options);
        client.on('error', (error) => {
          lost?.(error);
          current = null;
          void client.end().catch(() => {});
        });
        await client.connect();
        return { client, prepared: await prepare(client) };
      })().catch((error: unknown) => {
        current = null;
        throw error;
      });
      return current;
    },
    async close() {
      const pending = current;
      current = null;
      if (pending) await (await pending.catch(() => null))?.client.end().catch(() => {});
    },
  };
}

/**
 * Whether the session named by the columns `pid` and `start` (its backend_start) is open. Other
 * roles see backend_start as null: then the pid alone says the session lives.
 */
export function sessionLives(pid: string, start: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from pg_stat_activity a where a.pid = ${sql.ref(pid)} and (a.backend_start is null or a.backend_start = ${sql.ref(start)}))`;
}
