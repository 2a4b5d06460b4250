// Durable background jobs. A job is enqueued in the same transaction as the data it is about, so
// committed data never misses its job; a worker leases jobs, and a lease that is not renewed
// (its worker crashed) expires so another worker takes the job up. Handlers must tolerate running
// twice for the same job: the work they record is keyed so that a repeat changes nothing.
import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';

export interface JobSpec {
  task: string;
  payload: Record<string, unknown>;
  /** Not before this time (a retry's backoff); now when absent. */
  runAt?: Date;
}

export interface JobContext {
  jobId: string;
  /** 1 on the first run; counts runs the engine made after crashes or thrown errors. */
  attempt: number;
}

/** Throwing makes the engine retry the job later (with backoff); expected failures are the handler's to record. */
export type JobHandler = (payload: Record<string, unknown>, context: JobContext) => Promise<void>;

export interface RunningWorker {
  /** Stops taking jobs, waits for the running ones, and gives back what it still holds. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  concurrency: number;
  log: JobLog;
}

export interface JobLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface JobQueue {
  /** Adds jobs inside the caller's transaction: they exist exactly when that transaction commits. */
  enqueueInTransaction(tx: Transaction<Tables>, jobs: JobSpec[]): Promise<void>;
  enqueue(jobs: JobSpec[]): Promise<void>;
  /** Tells this process's worker that work was just committed, so it starts without waiting to poll. */
  wake(): void;
  /** Jobs another connection of this process committed (SQLite's submit writer thread): wakes the workers that take them. */
  committedElsewhere(jobs: JobSpec[]): void;
  startWorker(handlers: Record<string, JobHandler>, options: WorkerOptions): Promise<RunningWorker>;
  /**
   * graphile-worker's queue (PostgreSQL) only: the runs a job gets, so a statement of our own can add
   * jobs as enqueueInTransaction does (the submit batch's, migrations 0044 and 0045; the schema its
   * add_jobs lives in is written into intake_add_processing_jobs at start).
   */
  readonly graphile?: GraphileJobs;
}

export interface GraphileJobs {
  maxAttempts: number;
}
