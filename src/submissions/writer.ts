// Stores batches of submissions, each with its processing jobs, in one transaction, and wakes this
// process's workers once it has committed. On SQLite the transaction runs in a worker thread that
// owns a connection of its own: the statements and the commit's fsync no longer hold the event
// loop, which goes on parsing, validating and answering while a batch commits. The caller (group
// commit) answers nobody before the promise of its batch resolves, that is after the commit.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Database } from '../db/database.ts';
import { StorageUnavailableError, type OutageReason } from '../db/outage.ts';
import type { JobQueue, JobSpec } from '../jobs/queue.ts';
import { processingJobsFor } from '../pipeline/tasks.ts';
import type { InsertOutcome, NewSubmission, SubmissionStore } from './store.ts';
import { insertBatchInOneStatement } from './postgres-batch.ts';

export type WriteBatch = (items: NewSubmission[]) => Promise<InsertOutcome[]>;

export function processingJobs(created: NewSubmission[]): JobSpec[] {
  return processingJobsFor(created);
}

// Batches cross as JSON text: one string is copied in a blink, where cloning hundreds of small
// objects (postMessage's structured clone) took an eighth of the main thread's time.
export interface ThreadRequest {
  id: number;
  /** JSON of NewSubmission[]. */
  items: string;
}

/**
 * outcomes: JSON of InsertOutcome[]. An error loses its own fields crossing threads (SQLite's
 * errcode among them), so the thread says whether it was an outage (src/db/outage.ts).
 */
export type ThreadReply = { id: number; outcomes: string } | { id: number; error: unknown; outage: OutageReason | null };

export interface ThreadOptions {
  file: string;
  maxAttempts: number;
  busyTimeoutMs: number;
}

interface Pending {
  resolve(outcomes: InsertOutcome[]): void;
  reject(error: unknown): void;
}

/** The thread starts with the first write (a worker process never submits) and again after a crash. */
class WriterThread {
  readonly #options: ThreadOptions;
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | null = null;
  #nextId = 0;

  constructor(options: ThreadOptions) {
    this.#options = options;
  }

  write(items: NewSubmission[]): Promise<InsertOutcome[]> {
    const worker = this.#worker ?? this.#start();
    const id = this.#nextId++;
    // Only a write in flight keeps the process alive: an idle thread never holds up its exit.
    if (this.#pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, items: JSON.stringify(items) } satisfies ThreadRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (!worker) return;
    worker.ref();
    const exited = once(worker, 'exit');
    worker.postMessage('close');
    await exited;
  }

  #start(): Worker {
    // A small young generation: the thread holds one batch at a time, and the API process's
    // memory is a target of its own (a worker's default heap would add tens of megabytes). V8's
    // --max-semi-space-size, which npm start and the Docker image pass, overrides this for every
    // thread of the process: there the thread's semi-spaces are capped at the flag's 8 MB instead
    // (at 16 MB, the flag before, this thread alone held 16 MB of young generation under load).
    const worker = new Worker(new URL('./writer-thread.ts', import.meta.url), {
      workerData: this.#options,
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker.unref();
    worker.on('message', (reply: ThreadReply) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      if ('error' in reply) pending?.reject(reply.outage ? new StorageUnavailableError(reply.outage, reply.error) : reply.error);
      else pending?.resolve(JSON.parse(reply.outcomes) as InsertOutcome[]);
    });
    const stopped = (error: unknown) => {
      if (this.#worker === worker) this.#worker = null;
      // A batch whose commit never answered is not known to be stored: its requests fail (500).
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the submission writer thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }
}

/**
 * In auto mode, the batch size that starts the thread: several submissions gathered in one event-loop
 * turn mean requests are arriving faster than commits on the main thread would let it answer them.
 */
export const AUTO_THREAD_BATCH = 4;

/**
 * mode (INTAKE_SQLITE_WRITER_THREAD, SQLite only): 'true' writes from the thread from the first batch;
 * 'auto' writes on the main connection until a batch of AUTO_THREAD_BATCH or more arrives, then from
 * the thread for good (about 25 MB that a quiet server never pays: docs/memory.md); 'false'
 * never starts it. Group commit hands over one batch at a time, so the two never write at once.
 */
export function submissionWriter(database: Database, store: SubmissionStore, queue: JobQueue, maxAttempts: number, mode: 'auto' | 'true' | 'false' = 'true'): WriteBatch {
  // PostgreSQL: the pool's connections mostly wait on the network, which costs the event loop nothing.
  // SQLite without the thread: the same code on the main connection.
  const here: WriteBatch = async (items) => {
    const outcomes = await store.insertBatch(items, (tx, created) => queue.enqueueInTransaction(tx, processingJobs(created)));
    queue.wake();
    return outcomes;
  };
  // PostgreSQL with graphile-worker's queue: one statement per batch (postgres-batch.ts), traced or
  // not. Batches with files keep the transaction: their file rows are insert-batch.ts's to write.
  const { graphile } = queue;
  if (!database.sqliteFile && database.engine === 'postgres' && graphile) {
    const needsTransaction = (item: NewSubmission) => item.files !== undefined && item.files.length > 0;
    return async (items) => (items.some(needsTransaction) ? here(items) : insertBatchInOneStatement(database.db, items, graphile));
  }
  if (!database.sqliteFile || mode === 'false') return here;
  const thread = new WriterThread({ file: database.sqliteFile, maxAttempts, busyTimeoutMs: database.sqliteBusyTimeoutMs });
  database.onClose(() => thread.close());
  let threaded = mode === 'true';
  return async (items) => {
    threaded ||= items.length >= AUTO_THREAD_BATCH;
    if (!threaded) return here(items);
    const outcomes = await thread.write(items);
    queue.committedElsewhere(processingJobs(items.filter((_, i) => outcomes[i]?.kind === 'created')));
    return outcomes;
  };
}
