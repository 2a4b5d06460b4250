// Commits that may return before their fsync, for work that runs again if a power cut loses it: the
// pipeline's final statuses and the SQLite queue's leases and completions. On SQLite a durable commit
// waits for an fsync (2 to 5 ms on this project's hosts) on the calling thread; with the embedded
// worker that thread is the one that answers requests, and the worker's commits (a lease, a batch's
// final statuses, the completions, each round) each stopped the event loop that long.
//
// Why nothing is lost: commits reach the write-ahead log in order (SQLite's WAL file, PostgreSQL's
// WAL), and the next durable commit on the database (the next submission's, from any connection)
// makes every earlier one durable with it. A power cut can only lose a suffix: a final status goes
// with the deletion of its job, which then runs again, as `intake worker` already does for all its
// commits (src/server.ts). Submissions, owners' changes and delivery records stay durable.
//
// SQLite may not change a connection's safety level inside a transaction, so the driver does it
// around `begin` (sqlite-lock-wait.ts), told by this context, and puts the connection's own level
// back when the transaction ends, before anyone else can use the connection. PostgreSQL's
// `set local synchronous_commit = off` ends with its transaction by itself.
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from './migrations/column-types.ts';

/** Set only around the driver's `begin` or a lone write, never inside the caller's own callback. */
const relaxed = new AsyncLocalStorage<true>();

/** For the SQLite driver: whether the statement or `begin` it runs now may commit without waiting for the fsync. */
export function relaxedCommitAsked(): boolean {
  return relaxed.getStore() === true;
}

/** A transaction whose commit may return before its fsync (see above). */
export function relaxedTransaction<D, T>(db: Kysely<D>, engine: Engine, run: (tx: Transaction<D>) => Promise<T>): Promise<T> {
  if (engine === 'postgres') {
    return db.transaction().execute(async (tx) => {
      await sql`set local synchronous_commit = off`.execute(tx);
      return run(tx);
    });
  }
  // What `run` starts (timers, other queries) must not inherit the request.
  return relaxed.run(true, () => db.transaction().execute((tx) => relaxed.exit(() => run(tx))));
}

/** A lone SQLite write (its own autocommit) whose commit may return before its fsync. */
export function relaxedWrite<T>(write: () => Promise<T>): Promise<T> {
  return relaxed.run(true, write);
}
