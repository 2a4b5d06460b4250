// How a SQLite connection waits for another connection's write lock. SQLite's own busy handler sleeps
// 1, 2, 5, 10, 15, 20, 25 … ms between tries, inside the call: a lock held for 3 ms is noticed after
// 8 ms and one held for 20 ms after 33, and on the main thread every one of those sleeps stops the
// event loop (no request is answered, no timer fires). Both waits below try with the busy handler
// off and, past the timeout, fail with SQLite's own SQLITE_BUSY (an outage, 503), as before.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseSync } from 'node:sqlite';
import { CompiledQuery, SqliteDriver, type DatabaseConnection, type QueryResult, type SqliteDialectConfig } from 'kysely';
import { isSqliteBusy } from './outage.ts';
import { relaxedCommitAsked } from './relaxed-commit.ts';

/**
 * `blocking`: between tries the thread sleeps `pollMs` (Atomics.wait): only for a connection on a
 * thread of its own, the submit path's writer, which then takes the lock within a fraction of a
 * millisecond of its release. Otherwise the tries are spaced by timers, and the event loop runs
 * between them: the main thread's connection (owners' changes, the embedded pipeline worker).
 */
export interface LockPolling {
  pollMs: number;
  timeoutMs: number;
  blocking: boolean;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * `begin immediate` tried every pollMs until timeoutMs, blocking the thread. The connection's busy
 * timeout is 0 for the tries and back to timeoutMs for the transaction's statements.
 */
export function beginBlocking(db: DatabaseSync, { pollMs, timeoutMs }: LockPolling): void {
  const deadline = performance.now() + timeoutMs;
  db.exec('pragma busy_timeout = 0');
  try {
    for (;;) {
      try {
        db.exec('begin immediate');
        return;
      } catch (error) {
        if (!isSqliteBusy(error) || performance.now() >= deadline) throw error;
        Atomics.wait(pause, 0, 0, pollMs);
      }
    }
  } finally {
    db.exec(`pragma busy_timeout = ${Math.trunc(timeoutMs)}`);
  }
}

/** One user of the connection at a time, as Kysely's own mutex for SQLite, but one a wait can let go of. */
class ConnectionTurn {
  #held: Promise<void> | null = null;
  #release: (() => void) | null = null;

  async take(): Promise<void> {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  give(): void {
    const release = this.#release;
    this.#held = null;
    this.#release = null;
    release?.();
  }
}

/** Statements that may write: everything but a plain SELECT or a pragma read. */
function mayWrite(query: CompiledQuery): boolean {
  if (query.query.kind === 'SelectQueryNode') return false;
  return !/^\s*(select|pragma|explain)\b/i.test(query.sql);
}

/**
 * Kysely's connection whose writes wait for another connection's write lock on timers: each try runs
 * with the busy handler off and, on SQLITE_BUSY, the connection is handed to whoever else wants it
 * (a read, another request's write) for pollMs before the next try, until timeoutMs. So while another
 * process writes, the event loop runs and so do this process's reads. A transaction takes the lock
 * once, at its `begin immediate`, and its statements then never wait.
 */
class AwaitingConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  readonly #db: DatabaseSync;
  readonly #polling: LockPolling;
  readonly #turn: ConnectionTurn;
  inTransaction = false;
  /** The connection's own `synchronous` level, read the first time a commit is relaxed. */
  #ownSafety: number | null = null;
  /** The open transaction runs at synchronous=NORMAL (relaxed-commit.ts): its end puts #ownSafety back. */
  #relaxedTransaction = false;

  constructor(inner: DatabaseConnection, db: DatabaseSync, polling: LockPolling, turn: ConnectionTurn) {
    this.#inner = inner;
    this.#db = db;
    this.#polling = polling;
    this.#turn = turn;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction || !mayWrite(query)) return this.#inner.executeQuery<R>(query);
    return this.#awaitingLock(() => this.#inner.executeQuery<R>(query), relaxedCommitAsked() ? 'statement' : null);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>(query, chunkSize);
  }

  async begin(): Promise<void> {
    const relaxed = relaxedCommitAsked();
    await this.#awaitingLock(() => this.#inner.executeQuery(CompiledQuery.raw('begin immediate')), relaxed ? 'transaction' : null);
    this.inTransaction = true;
    this.#relaxedTransaction = relaxed;
  }

  /** After commit or rollback, while the connection is still this caller's. */
  endTransaction(): void {
    this.inTransaction = false;
    if (this.#relaxedTransaction) this.#restoreSafety();
    this.#relaxedTransaction = false;
  }

  /** The commit of what runs next may return before its fsync (relaxed-commit.ts); outside a transaction only. */
  #relaxSafety(): void {
    this.#ownSafety ??= Number((this.#db.prepare('pragma synchronous').get() as { synchronous: number | bigint }).synchronous);
    this.#db.exec('pragma synchronous = normal');
  }

  #restoreSafety(): void {
    this.#db.exec(`pragma synchronous = ${this.#ownSafety}`);
  }

  /**
   * `attempt` runs its statement before it returns (Kysely's SQLite connection does all its work
   * synchronously), so the busy timeout is back before any other code can use the connection.
   * `relax`: the statement, or the transaction it begins, commits at synchronous=NORMAL; the
   * connection's own level is back before the turn passes to anyone else (a lone statement's at
   * once, a transaction's when it ends).
   */
  async #awaitingLock<T>(attempt: () => Promise<T>, relax: 'statement' | 'transaction' | null = null): Promise<T> {
    const { pollMs, timeoutMs } = this.#polling;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      let result: Promise<T>;
      this.#db.exec('pragma busy_timeout = 0');
      if (relax) this.#relaxSafety();
      try {
        result = attempt();
      } finally {
        this.#db.exec(`pragma busy_timeout = ${Math.trunc(timeoutMs)}`);
      }
      try {
        const value = await result;
        if (relax === 'statement') this.#restoreSafety();
        return value;
      } catch (error) {
        if (relax) this.#restoreSafety();
        if (!isSqliteBusy(error) || performance.now() >= deadline) throw error;
      }
      this.#turn.give();
      try {
        await sleep(pollMs);
      } finally {
        await this.#turn.take();
      }
    }
  }
}

/**
 * SQLite's driver for a connection on the main thread: write transactions take the lock up front
 * (`begin immediate`), waiting for it on timers (AwaitingConnection). It takes turns on the
 * connection itself; its adapter tells Kysely not to (`supportsMultipleConnections`).
 */
export class AwaitingSqliteDriver extends SqliteDriver {
  readonly #connection: (inner: DatabaseConnection) => AwaitingConnection;
  readonly #turn = new ConnectionTurn();
  #awaiting: AwaitingConnection | null = null;

  constructor(config: SqliteDialectConfig, db: DatabaseSync, polling: LockPolling) {
    super(config);
    this.#connection = (inner) => new AwaitingConnection(inner, db, polling, this.#turn);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#turn.take();
    this.#awaiting ??= this.#connection(await super.acquireConnection());
    return this.#awaiting;
  }

  override async releaseConnection(): Promise<void> {
    this.#turn.give();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as AwaitingConnection).begin();
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A commit that fails leaves the transaction open: Kysely rolls it back next, which ends it.
    await super.commitTransaction(connection);
    (connection as AwaitingConnection).endTransaction();
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      (connection as AwaitingConnection).endTransaction();
    }
  }
}
