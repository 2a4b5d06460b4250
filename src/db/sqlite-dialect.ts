// Kysely's SqliteDialect speaks to a better-sqlite3-shaped object. node:sqlite ships with Node,
// so this thin adapter lets the embedded default need no native build and no download.
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { AwaitingSqliteDriver, beginBlocking, type LockPolling } from './sqlite-lock-wait.ts';
import {
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';

export function toSqlite(value: unknown): SQLInputValue {
  // node:sqlite binds no booleans or dates; map them to the representations the schema uses.
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value as SQLInputValue;
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...parameters.map(toSqlite));
  }

  run(parameters: ReadonlyArray<unknown>) {
    return this.#statement.run(...parameters.map(toSqlite));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...parameters.map(toSqlite));
  }
}

/** Keeps prepared statements: the same few queries run on every request. */
class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = new NodeSqliteStatement(this.#db.prepare(sql));
      if (this.#statements.size > 500) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.#db.close();
  }
}

/**
 * Write transactions take the write lock up front, so two processes never deadlock upgrading a read
 * lock. For a connection on a thread of its own (polling.blocking); the main thread's is
 * AwaitingSqliteDriver.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  readonly #db: DatabaseSync;
  readonly #polling: LockPolling;

  constructor(database: NodeSqliteDatabase, db: DatabaseSync, polling: LockPolling) {
    super({ database });
    this.#db = db;
    this.#polling = polling;
  }

  override async beginTransaction(): Promise<void> {
    beginBlocking(this.#db, this.#polling);
  }
}

/**
 * SQLite runs DDL inside transactions, though Kysely's adapter says otherwise. Saying so makes the
 * migrator read the applied migrations and apply the missing ones in one `begin immediate`
 * transaction: processes starting together take turns, and a failed migration leaves nothing half-done.
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  /** True when the driver takes turns on its connection itself (AwaitingSqliteDriver), not Kysely. */
  readonly #driverTakesTurns: boolean;

  constructor(driverTakesTurns: boolean) {
    super();
    this.#driverTakesTurns = driverTakesTurns;
  }

  override get supportsTransactionalDdl(): boolean {
    return true;
  }

  override get supportsMultipleConnections(): boolean {
    return this.#driverTakesTurns;
  }
}

class NodeSqliteDialect extends SqliteDialect {
  readonly #database: NodeSqliteDatabase;
  readonly #db: DatabaseSync;
  readonly #polling: LockPolling;
  constructor(db: DatabaseSync, polling: LockPolling) {
    const database = new NodeSqliteDatabase(db);
    super({ database });
    this.#database = database;
    this.#db = db;
    this.#polling = polling;
  }
  override createDriver(): Driver {
    if (this.#polling.blocking) return new ImmediateTransactionDriver(this.#database, this.#db, this.#polling);
    return new AwaitingSqliteDriver({ database: this.#database }, this.#db, this.#polling);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter(!this.#polling.blocking);
  }
}

export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/**
 * WAL lets readers run beside the writer; synchronous=FULL makes every commit durable before it
 * returns; secure_delete zeroes what is deleted. `durable: false` (synchronous=NORMAL) leaves the fsync to the next checkpoint: a crash of
 * the process loses nothing, a power cut the latest commits, in order (see `intake worker`).
 */
export function openSqliteConnection(file: string, options: { durable?: boolean; busyTimeoutMs?: number } = {}): DatabaseSync {
  // A write waits this long for another connection's write lock; past it SQLITE_BUSY is an outage (503).
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
  db.exec('pragma journal_mode = wal');
  db.exec(`pragma synchronous = ${options.durable === false ? 'normal' : 'full'}`);
  db.exec('pragma foreign_keys = on');
  // Deleted content is overwritten with zeros, not left in free pages and cells where a copy of the
  // file would still show it (an erased person's words). Costs little: see docs/security.md.
  db.exec('pragma secure_delete = on');
  return db;
}

/**
 * Kysely over a connection; statements prepared straight on `db` run in Kysely's transactions too.
 * `polling`: how its writes wait for another connection's write lock (sqlite-lock-wait.ts).
 */
export function sqliteDialect(db: DatabaseSync, polling: LockPolling): SqliteDialect {
  return new NodeSqliteDialect(db, polling);
}


/**
 * One prepared INSERT for rows shaped like `sample`, run straight on the connection: on a hot path
 * it spares building, compiling and (for each new row count) preparing a multi-row statement.
 * Returns a function that inserts one row and says whether it was stored (`suffix` may skip it).
 */
export function preparedInsert<R extends Record<string, unknown>>(db: DatabaseSync, table: string, sample: R, suffix = ''): (row: R) => boolean {
  const columns = Object.keys(sample);
  const statement = db.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')}) ${suffix}`);
  return (row) => Number(statement.run(...columns.map((c) => toSqlite(row[c]))).changes) > 0;
}
