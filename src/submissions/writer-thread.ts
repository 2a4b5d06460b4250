// The submit path's SQLite writer: a worker thread with a connection of its own, which stores each
// batch it is handed (rows, counters, processing jobs) in one transaction and answers once it has
// committed. The code that runs is the store's, the same as everywhere else.
import { flushCompileCache } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { Kysely } from 'kysely';
import { storageOutage } from '../db/outage.ts';
import { openSqliteConnection, sqliteDialect } from '../db/sqlite-dialect.ts';
import type { Tables } from '../db/tables.ts';
import { preparedJobInsert } from '../jobs/sqlite-queue.ts';
import { submissionStore, type NewSubmission } from './store.ts';
import { batchStatementsFor } from './batch-statements.ts';
import { processingJobs, type ThreadOptions, type ThreadReply, type ThreadRequest } from './writer.ts';

/** How often a batch that meets another connection's write tries for the lock again. */
const WRITE_LOCK_POLL_MS = 0.25;

const port = parentPort;
if (!port) throw new Error('writer-thread.ts runs only as a worker thread');
const options = workerData as ThreadOptions;
const connection = openSqliteConnection(options.file, { busyTimeoutMs: options.busyTimeoutMs });
// The thread may block, so it polls for the write lock rather than sleep SQLite's busy schedule:
// another process's write (uploads, workers) delays a batch by its length, not by the schedule's steps.
const db = new Kysely<Tables>({ dialect: sqliteDialect(connection, { pollMs: WRITE_LOCK_POLL_MS, timeoutMs: options.busyTimeoutMs, blocking: true }) });
const store = submissionStore(db, batchStatementsFor(connection), 'sqlite');
const addJobs = preparedJobInsert(connection, options.maxAttempts);
// The thread's files go to the compile cache now (src/compile-cache.mjs; the thread inherits the
// preload): it ends with its process, which may be killed, and a thread that finds all of them there
// never loads the type stripper.
flushCompileCache();

async function storeBatch(request: ThreadRequest): Promise<ThreadReply> {
  try {
    const outcomes = await store.insertBatch(JSON.parse(request.items) as NewSubmission[], async (_tx, created) => addJobs(processingJobs(created)));
    return { id: request.id, outcomes: JSON.stringify(outcomes) };
  } catch (error) {
    return { id: request.id, error, outage: storageOutage(error) };
  }
}

port.on('message', (message: ThreadRequest | 'close') => {
  if (message === 'close') {
    void db.destroy().finally(() => process.exit(0));
    return;
  }
  void storeBatch(message).then((reply) => port.postMessage(reply));
});
