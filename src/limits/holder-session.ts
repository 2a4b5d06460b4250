// The database session that stands for this process in the in-flight slots it holds on PostgreSQL:
// a connection of its own, open as long as the process (src/db/own-session.ts). A process that dies
// (SIGKILL, OOM) takes the session with it, and PostgreSQL sees that at once, so its slots are free to
// the next taker instead of blocking their destination until their hold time runs out (the webhook
// timeout plus a margin: 45 s by default). Worker leases name their process the same way (src/jobs/graphile-queue.ts).
import type pg from 'pg';
import { ownSession } from '../db/own-session.ts';

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
  // A holder whose session is gone looks dead to other processes: its slots are theirs to take,
  // which at worst lets one destination get a delivery or two over its cap once.
  const session = ownSession(pool, async (client) => {
    const { rows } = await client.query<Holder>('select pid, backend_start::text as start from pg_stat_activity where pid = pg_backend_pid()');
    return rows[0]!;
  });
  // After close, no new session: one opened then would keep the process alive.
  let closed = false;
  return {
    async identity() {
      if (closed) throw new Error('the slot holder session is closed');
      return (await session.open()).prepared;
    },
    async close() {
      closed = true;
      await session.close();
    },
  };
}
