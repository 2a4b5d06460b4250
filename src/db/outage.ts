// Which failures mean "the database cannot be reached right now" (an outage a client should wait
// out: 503 with Retry-After) rather than a fault of ours (500). Each leaves nothing written: the
// statement never reached the server, or its transaction was cut off and rolled back with its
// connection. The one exception cannot be told apart: a connection lost while the server commits
// (an Idempotency-Key makes the client's retry safe; docs/operations.md).

export type OutageReason = 'unreachable' | 'connection_lost' | 'pool_timeout' | 'shutting_down' | 'starting_up' | 'busy' | 'disk_full';

/** Seconds a client is told to wait: a restart takes seconds; a full disk needs a person. */
export function retryAfterSeconds(reason: OutageReason): number {
  return reason === 'disk_full' ? 60 : 2;
}

/** An outage found where its error's own fields could not travel (the SQLite writer thread), by reason. */
export class StorageUnavailableError extends Error {
  readonly reason: OutageReason;
  constructor(reason: OutageReason, cause?: unknown) {
    super(`the database is unavailable (${reason})`, { cause });
    this.name = 'StorageUnavailableError';
    this.reason = reason;
  }
}

// Node's socket errors: the server's port is closed, the connection was cut, or no route to it.
const NETWORK_CODES: Record<string, OutageReason> = {
  ECONNREFUSED: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  ETIMEDOUT: 'unreachable',
  ECONNRESET: 'connection_lost',
  EPIPE: 'connection_lost',
  ECONNABORTED: 'connection_lost',
};

// PostgreSQL's SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown (a fast or
// immediate stop), 57P02 crash_shutdown (another backend crashed), 57P03 cannot_connect_now
// (starting up, shutting down, in recovery), 53300 too_many_connections, 53100 disk_full,
// 57014 query_canceled (the statement timeout ran out, mostly behind another transaction's lock)
// and 55P03 lock_not_available: the PostgreSQL counterparts of SQLite's busy.
function sqlState(code: string): OutageReason | null {
  if (code === '57014' || code === '55P03') return 'busy';
  if (code === '57P01' || code === '57P02') return 'shutting_down';
  if (code === '57P03') return 'starting_up';
  if (code === '53300') return 'pool_timeout';
  if (code === '53100') return 'disk_full';
  if (/^08[0-9A-Z]{3}$/.test(code)) return 'connection_lost';
  return null;
}

// pg and pg-pool say these in words only (no code): a connection that died under a query, a
// client the pool handed out after its connection failed, the pool's own connection timeout.
const PG_MESSAGES: Array<[RegExp, OutageReason]> = [
  [/^Connection terminated/, 'connection_lost'],
  [/^Client has encountered a connection error and is not queryable$/, 'connection_lost'],
  [/^timeout exceeded when trying to connect$/, 'pool_timeout'],
];

// SQLite's primary result codes (node:sqlite gives the extended code as errcode): SQLITE_BUSY past
// the connection's busy timeout, SQLITE_FULL when the disk (or a size limit) is full.
const SQLITE_BUSY = 5;
const SQLITE_FULL = 13;

/** SQLITE_BUSY: another connection holds the lock this one needs (past its busy timeout, if any). */
export function isSqliteBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && (errcode & 0xff) === SQLITE_BUSY;
}

function classifyOne(error: object): OutageReason | null {
  if (error instanceof StorageUnavailableError) return error.reason;
  const { code, errcode, message } = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    if ((errcode & 0xff) === SQLITE_BUSY) return 'busy';
    if ((errcode & 0xff) === SQLITE_FULL) return 'disk_full';
    return null;
  }
  if (typeof code === 'string') {
    const network = NETWORK_CODES[code];
    if (network) return network;
    if (code.length === 5) return sqlState(code);
  }
  if (typeof message === 'string') {
    for (const [pattern, reason] of PG_MESSAGES) if (pattern.test(message)) return reason;
  }
  return null;
}

/** The outage an error stands for, looking through causes and AggregateErrors; null when it is none. */
export function storageOutage(error: unknown, depth = 0): OutageReason | null {
  if (typeof error !== 'object' || error === null || depth > 3) return null;
  const direct = classifyOne(error);
  if (direct) return direct;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = storageOutage(inner, depth + 1);
      if (found) return found;
    }
  }
  return 'cause' in error ? storageOutage(error.cause, depth + 1) : null;
}
