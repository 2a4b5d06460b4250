// Opens the one query layer over whichever engine the configuration names.
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { loadPg } from './pg.ts';
import type { DatabaseSync } from 'node:sqlite';
import { DEFAULT_BUSY_TIMEOUT_MS, openSqliteConnection, sqliteDialect } from './sqlite-dialect.ts';
import { preparedName } from './statement.ts';
import { privateDatabaseFiles, privateDir } from './file-modes.ts';
import { sqliteFile } from './sqlite-file.ts';
import type { Tables } from './tables.ts';
import type { Engine } from './migrations/column-types.ts';

export { sqliteFile };

export type Db = Kysely<Tables>;

/** How often a main-thread write that meets another connection's write lock tries again (a timer's least). */
const MAIN_THREAD_LOCK_POLL_MS = 1;

export interface Database {
  db: Db;
  engine: Engine;
  /** The pool behind `db` on PostgreSQL, for graphile-worker, which speaks to pg itself. */
  pgPool: pg.Pool | null;
  /** PostgreSQL schema of the job tables. */
  jobsSchema: string;
  /** The SQLite file, for connections of other threads; null on PostgreSQL. */
  sqliteFile: string | null;
  /** The connection behind `db` on SQLite, for statements prepared once on a hot path; null on PostgreSQL. */
  sqliteConnection: DatabaseSync | null;
  /** SQLite: how long a write waits for the lock (other connections to the file use the same). */
  sqliteBusyTimeoutMs: number;
  /** What opening changed that the operator should hear of: files and directories readable by others, tightened. */
  notices: string[];
  /** Runs before the connection closes: what holds connections of its own (a writer thread) ends first. */
  onClose(hook: () => Promise<void>): void;
  close(): Promise<void>;
}

function closing(destroy: () => Promise<void>) {
  const hooks: Array<() => Promise<void>> = [];
  return {
    onClose: (hook: () => Promise<void>) => void hooks.push(hook),
    close: async () => {
      for (const hook of hooks.splice(0)) await hook();
      await destroy();
    },
  };
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL: longest wait for a connection of the pool, in ms. */
  connectTimeoutMs?: number;
  /** PostgreSQL: statements running longer are cancelled by the server (0 or unset: no limit). */
  statementTimeoutMs?: number;
  /**
   * SQLite: false lets commits return before their fsync (synchronous=NORMAL). Only for connections
   * whose writes can be redone: `intake worker`, whose work lost to a power cut runs again, since
   * the deletion of its job is lost with it. Whatever answers a submitter keeps true.
   */
  durableCommits?: boolean;
  /** SQLite: longest wait for another connection's write lock, in ms. */
  sqliteBusyTimeoutMs?: number;
  pipeline?: { jobsSchema: string };
}

/**
 * Runs the statements compiled once (statement.ts) as named prepared statements: each connection
 * parses and plans them once instead of on every run. Any other SQL goes through unchanged.
 */
function preparingClient(Client: typeof pg.Client): typeof pg.Client {
  return class PreparingClient extends Client {
    override query(...args: unknown[]): never {
      const [text, values] = args;
      const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? preparedName(text) : undefined;
      const query = super.query as (...a: unknown[]) => never;
      return name ? query.call(this, { name, text, values }) : query.apply(this, args);
    }
  };
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    // A request waits at most connectTimeoutMs for a connection (the server is down, or every
    // connection is busy), then fails as an outage (503), instead of waiting for ever.
    const pg = loadPg();
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      // Nor does a statement hold its connection for ever behind a lock or a runaway plan: the
      // server cancels it (57014), which answers 503 like any other wait that ran out.
      ...(options.statementTimeoutMs && { statement_timeout: options.statementTimeoutMs }),
      Client: preparingClient(pg.Client),
    });
    // An idle client that loses its server must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    return {
      db, engine: 'postgres', pgPool: pool, jobsSchema: options.pipeline?.jobsSchema ?? 'graphile_worker', sqliteFile: null, sqliteConnection: null,
      sqliteBusyTimeoutMs: 0, notices: [], ...closing(() => db.destroy()),
    };
  }
  // The directory 0700 and the database, its WAL and shared memory 0600 before SQLite opens them
  // (it gives the WAL and shared memory the database file's mode).
  const file = sqliteFile(options.dataDir);
  const notices = [...privateDir(options.dataDir), ...privateDatabaseFiles(file)];
  const busyTimeoutMs = options.sqliteBusyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const connection = openSqliteConnection(file, { durable: options.durableCommits, busyTimeoutMs });
  // The main thread's writes wait for another connection's lock on timers, never in SQLite's sleeps.
  const db = new Kysely<Tables>({ dialect: sqliteDialect(connection, { pollMs: MAIN_THREAD_LOCK_POLL_MS, timeoutMs: busyTimeoutMs, blocking: false }) });
  return {
    db, engine: 'sqlite', pgPool: null, jobsSchema: '', sqliteFile: file, sqliteConnection: connection, sqliteBusyTimeoutMs: busyTimeoutMs, notices,
    ...closing(() => db.destroy()),
  };
}
