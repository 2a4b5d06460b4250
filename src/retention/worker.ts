// The retention purge on the job queues: every worker process looks now and then whether the run
// is due (scheduled_runs); the one whose update moves the due time forward enqueues the job in the
// same transaction, so one run per period happens across all processes, and whichever worker takes
// the job runs it. The same run removes the OAuth server's expired records (codes, tokens,
// interactions, sessions, clients never allowed), so they go even when nobody answers a consent.
import type { Db } from '../db/database.ts';
import type { JobLog, JobQueue, RunningWorker } from '../jobs/queue.ts';
import type { RetentionService } from './service.ts';
import type { FileService } from '../files/service.ts';

export const PURGE_RETENTION = 'purge_retention';
const RUN_NAME = 'retention_purge';
/** How often a process looks whether the run is due, at most. */
const LOOK_MS = 60_000;

/** Enqueues the purge if it is due at `now`, and moves its due time on by `intervalMs`; true when this call did. */
export async function claimDueRun(db: Db, queue: JobQueue, now: Date, intervalMs: number): Promise<boolean> {
  const claimed = await db.transaction().execute(async (tx) => {
    await tx.insertInto('scheduled_runs').values({ name: RUN_NAME, next_run_at: now.toISOString() }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const moved = await tx.updateTable('scheduled_runs').set({ next_run_at: new Date(now.getTime() + intervalMs).toISOString() })
      .where('name', '=', RUN_NAME).where('next_run_at', '<=', now.toISOString()).executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return false;
    await queue.enqueueInTransaction(tx, [{ task: PURGE_RETENTION, payload: {} }]);
    return true;
  });
  if (claimed) queue.wake();
  return claimed;
}

export async function startRetentionWorker(options: {
  db: Db; queue: JobQueue; retention: RetentionService; intervalMs: number; log: JobLog; clock?: () => Date;
  /** Removes the OAuth records past their expiry; how many went. */
  expiredOauth?: () => Promise<number>;
  /** Uploaded files: the bytes of removed rows every minute, orphans with each purge. */
  files?: Pick<FileService, 'processDeletions' | 'sweepOrphans'>;
}): Promise<RunningWorker> {
  const { db, queue, retention, intervalMs, log } = options;
  const clock = options.clock ?? (() => new Date());
  const worker = await queue.startWorker({
    async [PURGE_RETENTION]() {
      const purged = await retention.purge();
      const oauthRecords = (await options.expiredOauth?.()) ?? 0;
      const orphanFiles = (await options.files?.sweepOrphans()) ?? 0;
      log.info({ forms: purged.length, submissions: purged.reduce((n, p) => n + p.spam + p.expired, 0), oauthRecords, orphanFiles }, 'retention purge');
    },
  }, { concurrency: 1, log });
  const look = () => void claimDueRun(db, queue, clock(), intervalMs).catch((error: unknown) => log.error({ err: error }, 'could not schedule the retention purge'));
  // Every process deletes the bytes of removed file rows: deleting bytes twice is harmless, and the rows say what is left.
  const deleteFiles = () => void options.files?.processDeletions().catch((error: unknown) => log.error({ err: error }, 'could not delete the bytes of removed files'));
  const timer = setInterval(() => {
    look();
    deleteFiles();
  }, Math.min(intervalMs, LOOK_MS));
  timer.unref();
  look();
  deleteFiles();
  return {
    async stop() {
      clearInterval(timer);
      await worker.stop();
    },
  };
}
