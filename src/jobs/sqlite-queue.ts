// The embedded engine's job queue: a table in the same SQLite file as the data, so a job commits
// with the submission it belongs to. Workers in any process lease due jobs in one `begin immediate`
// transaction (SQLite has one writer, so two workers never lease the same job) and renew their
// leases while they work; a lease left to expire (a crashed process) makes the job due again, and a
// worker that starts on the same machine frees at once the jobs of a holder whose process is gone.
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { DatabaseSync } from 'node:sqlite';
import { GroupCommit } from '../db/group-commit.ts';
import { relaxedTransaction, relaxedWrite } from '../db/relaxed-commit.ts';
import { preparedInsert } from '../db/sqlite-dialect.ts';
import { statement, type Executor } from '../db/statement.ts';
import type { Tables } from '../db/tables.ts';
import { retryDelay, type RetrySchedule } from './backoff.ts';
import { holderIsGone, newWorkerId, retireWorkerId } from './process-identity.ts';
import type { JobHandler, JobQueue, JobSpec, RunningWorker, WorkerOptions } from './queue.ts';

export interface SqliteQueueOptions {
  leaseMs: number;
  pollMs: number;
  /** Runs of a job whose handler keeps throwing before it is set aside as failed. */
  maxAttempts: number;
  retrySchedule: RetrySchedule;
}

interface LeasedJob {
  id: number;
  task: string;
  payload: string;
  attempts: number;
  max_attempts: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function rows(jobs: JobSpec[], maxAttempts: number) {
  const now = Date.now();
  return jobs.map((job) => ({
    task: job.task,
    payload: JSON.stringify(job.payload),
    run_at: iso(job.runAt?.getTime() ?? now),
    attempts: 0,
    max_attempts: maxAttempts,
    created_at: iso(now),
  }));
}

/** Rows per INSERT: a row binds six values, and SQLite binds at most 32,766 in one statement. */
const JOB_ROWS_PER_STATEMENT = 1000;

/** Adds jobs with the caller's connection or transaction: all of them or, if it fails, none. */
async function insertJobs(executor: Db | Transaction<Tables>, jobs: JobSpec[], maxAttempts: number): Promise<void> {
  const all = rows(jobs, maxAttempts);
  const insert = async (into: Db | Transaction<Tables>) => {
    for (let i = 0; i < all.length; i += JOB_ROWS_PER_STATEMENT) await into.insertInto('jobs').values(all.slice(i, i + JOB_ROWS_PER_STATEMENT)).execute();
  };
  if (all.length <= JOB_ROWS_PER_STATEMENT || executor.isTransaction) await insert(executor);
  else await executor.transaction().execute(insert);
}

/** Adds jobs through one prepared statement on `db`, for the hot path of the submit writer thread. */
export function preparedJobInsert(db: DatabaseSync, maxAttempts: number): (jobs: JobSpec[]) => void {
  let insert: ((row: ReturnType<typeof rows>[number]) => boolean) | null = null;
  return (jobs) => {
    for (const row of rows(jobs, maxAttempts)) (insert ??= preparedInsert(db, 'jobs', row))(row);
  };
}

export function sqliteJobQueue(db: Db, options: SqliteQueueOptions): JobQueue {
  // Jobs this process has enqueued, by task. wake() rouses only the workers with something new since
  // their last look: a submission finished with nothing to deliver must not send the delivery worker
  // through the queue. A look started before a commit still sees it: in one process every query
  // waits for the open transaction on the one connection.
  const enqueued = new Map<string, number>();
  const countFor = (tasks: string[]) => tasks.reduce((sum, task) => sum + (enqueued.get(task) ?? 0), 0);
  const wakers = new Set<{ hasNew(): boolean; wake(): void }>();
  const wakeThoseWithNews = () => {
    for (const waker of wakers) if (waker.hasNew()) waker.wake();
  };
  const note = (jobs: JobSpec[]) => {
    for (const job of jobs) enqueued.set(job.task, (enqueued.get(job.task) ?? 0) + 1);
  };

  return {
    async enqueueInTransaction(tx: Transaction<Tables>, jobs: JobSpec[]) {
      note(jobs);
      await insertJobs(tx, jobs, options.maxAttempts);
    },

    async enqueue(jobs: JobSpec[]) {
      await insertJobs(db, jobs, options.maxAttempts);
      note(jobs);
      wakeThoseWithNews();
    },

    wake: wakeThoseWithNews,

    committedElsewhere(jobs: JobSpec[]) {
      note(jobs);
      wakeThoseWithNews();
    },

    async startWorker(handlers: Record<string, JobHandler>, worker: WorkerOptions): Promise<RunningWorker> {
      const workerId = newWorkerId();
      // Each worker takes only its own tasks: a pool of slow deliveries never holds up processing.
      const tasks = Object.keys(handlers);
      let stopping = false;
      let running = 0;
      let wakeUp: (() => void) | null = null;
      // A wake that comes while the loop is leasing is kept: the loop looks again instead of sleeping
      // a poll interval with a free slot (a job that finished meanwhile, work just committed).
      let woken = false;
      const wake = () => {
        woken = true;
        wakeUp?.();
      };
      let seen = countFor(tasks);
      const waker = { hasNew: () => countFor(tasks) > seen, wake };
      wakers.add(waker);

      // This worker's hot statements, compiled once (see db/statement.ts).
      const dueJobs = (qb: Executor, now: string) =>
        qb
          .selectFrom('jobs')
          .select('id')
          .where('failed_at', 'is', null)
          .where('task', 'in', tasks)
          .where('run_at', '<=', now)
          .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now)]))
          .orderBy('run_at');
      const firstDue = statement((qb, p: { now: string }) => dueJobs(qb, p.now).limit(1));
      const leaseDue = statement((qb, p: { now: string; lockedUntil: string; limit: number }) =>
        qb
          .updateTable('jobs')
          .set((eb) => ({ locked_by: workerId, locked_until: p.lockedUntil, attempts: eb('attempts', '+', 1) }))
          .where('id', 'in', dueJobs(qb, p.now).limit(p.limit))
          .returning(['id', 'task', 'payload', 'attempts', 'max_attempts']));
      // The ids as one JSON array: one statement whatever their number.
      const deleteDone = statement((qb, p: { ids: string }) =>
        qb.deleteFrom('jobs').where('id', 'in', sql<number>`(select value from json_each(${p.ids}))`).where('locked_by', '=', workerId));

      // Finished jobs of one turn are deleted together: one commit instead of one per job. Leases and
      // completions may commit before their fsync (relaxed-commit.ts): one lost runs its job again.
      const completions = new GroupCommit<number, void>(
        async (ids) => {
          await relaxedWrite(() => deleteDone(db, { ids: JSON.stringify(ids) }));
          return ids.map(() => undefined);
        },
        { maxBatch: 500, maxConcurrent: 1 },
      );

      async function lease(limit: number): Promise<LeasedJob[]> {
        const nowMs = Date.now();
        const now = iso(nowMs);
        seen = countFor(tasks);
        // A look without the write lock first: an idle worker must not take it 20 times a second
        // from the submit path (or from another process's).
        if ((await firstDue(db, { now })).rows.length === 0) return [];
        const leased = await relaxedTransaction(db, 'sqlite', (tx) => leaseDue(tx, { now, lockedUntil: iso(nowMs + options.leaseMs), limit }));
        return leased.rows;
      }

      async function settleFailure(job: LeasedJob, error: unknown): Promise<void> {
        const message = error instanceof Error ? error.message : String(error);
        const final = job.attempts >= job.max_attempts;
        worker.log.error({ err: error, jobId: job.id, task: job.task, attempt: job.attempts, final }, 'job failed');
        await db
          .updateTable('jobs')
          .set({
            locked_by: null,
            locked_until: null,
            last_error: message.slice(0, 2000),
            ...(final ? { failed_at: iso(Date.now()) } : { run_at: iso(Date.now() + retryDelay(job.attempts, options.retrySchedule)) }),
          })
          .where('id', '=', job.id)
          .where('locked_by', '=', workerId)
          .execute();
      }

      async function run(job: LeasedJob): Promise<void> {
        try {
          const handler = handlers[job.task];
          if (!handler) throw new Error(`no handler for task "${job.task}"`);
          await handler(JSON.parse(job.payload) as Record<string, unknown>, { jobId: String(job.id), attempt: job.attempts });
          await completions.write(job.id);
        } catch (error) {
          await settleFailure(job, error).catch((e: unknown) => worker.log.error({ err: e, jobId: job.id }, 'could not record a job failure'));
        }
      }

      async function releaseGoneHolders(): Promise<void> {
        const holders = await db.selectFrom('jobs').select('locked_by').distinct()
          .where('locked_by', 'is not', null).where('locked_until', '>=', iso(Date.now())).execute();
        const gone = holders.map((h) => h.locked_by!).filter(holderIsGone);
        if (gone.length === 0) return;
        await db.updateTable('jobs').set({ locked_by: null, locked_until: null }).where('locked_by', 'in', gone).execute();
        worker.log.info({ workers: gone }, 'released the jobs of workers whose process is gone');
      }
      await releaseGoneHolders().catch((error: unknown) => worker.log.error({ err: error }, 'could not release the jobs of gone workers'));

      // While a handler runs its lease is renewed, so a slow provider call never looks like a crash.
      const renewal = setInterval(() => {
        releaseGoneHolders().catch((error: unknown) => worker.log.error({ err: error }, 'could not release the jobs of gone workers'));
        if (running === 0) return;
        db.updateTable('jobs').set({ locked_until: iso(Date.now() + options.leaseMs) }).where('locked_by', '=', workerId).execute()
          .catch((error: unknown) => worker.log.error({ err: error }, 'could not renew job leases'));
      }, Math.max(100, Math.floor(options.leaseMs / 3)));

      const loop = (async () => {
        while (!stopping) {
          woken = false;
          const free = worker.concurrency - running;
          let leased: LeasedJob[] = [];
          if (free > 0) {
            try {
              leased = await lease(free);
            } catch (error) {
              worker.log.error({ err: error }, 'could not lease jobs');
            }
          }
          for (const job of leased) {
            running++;
            void run(job).finally(() => {
              running--;
              wake();
            });
          }
          if ((leased.length === free && free > 0) || woken) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, options.pollMs);
            wakeUp = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wakeUp = null;
        }
      })();

      return {
        async stop() {
          stopping = true;
          wake();
          await loop;
          while (running > 0) await new Promise((resolve) => setTimeout(resolve, 10));
          clearInterval(renewal);
          wakers.delete(waker);
          retireWorkerId(workerId);
        },
      };
    },
  };
}
