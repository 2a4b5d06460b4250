// The database session that stands for this process in the in-flight slots it holds on PostgreSQL:
// a connection of its own, open as long as the process. A process that dies (SIGKILL, OOM) takes
// the session with it, and PostgreSQL sees that at once, so its slots are free to the next taker
// instead of blocking their destination until their hold time runs out (the webhook timeout plus
// a margin: 45 s by default). Worker leases name their process the same way (src/jobs/graphile-queue.ts).
import type pg from 'pg';
import { loadPg } from '../db/pg.ts';

/** A session as pg_stat_activity names it; `start` as PostgreSQL's text, to the microsecond. */
export interface Holder {
  pid: number;
  start: string;
}

export interface HolderSession {
  /** Opens the session on first use; after a lost connection, a new one (with a new identity). */
  identity(): Promise<Holder>;
  close(): Promise<void>;
}

export function holderSession(pool: pg.Pool): HolderSession {
  let current: Promise<{ client: pg.Client; holder: Holder }> | null = null;
  // After close, no new session: one opened then would keep the process alive.
  let closed = false;
  const open = async () => {
    const client = new (loadPg().Client)(pool.options);
    client.on('error', () => {
      // A holder whose session is gone looks dead to other processes: its slots are theirs to take,
      // which at worst lets one destination get a delivery or two over its cap once.
      current = null;
      void client.end().catch(() => {});
    });
    await client.connect();
    const { rows } = await client.query<{ pid: number; start: string }>(
      'select pid, backend_start::text as start from pg_stat_activity where pid = pg_backend_pid()',
    );
    return { client, holder: rows[0]! };
  };
  return {
    async identity() {
      if (closed) throw new Error('the slot holder session is closed');
      current ??= open().catch((error: unknown) => {
        current = null;
        throw error;
      });
      return (await current).holder;
    },
    async close() {
      closed = true;
      const pending = current;
      current = null;
      if (pending) await (await pending.catch(() => null))?.client.end().catch(() => {});
    },
  };
}
