// The job queue of the configured engine; its workers follow the trace a job's payload carries (src/tracing).
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { graphileJobQueue } from './graphile-queue.ts';
import type { JobQueue } from './queue.ts';
import { sqliteJobQueue } from './sqlite-queue.ts';
import { withJobTracing } from '../tracing/jobs.ts';

const PG_MIN_POLL_MS = 1_000;

export function jobQueueFor(database: Database, pipeline: Config['pipeline']): JobQueue {
  const common = { leaseMs: pipeline.leaseMs, pollMs: pipeline.pollMs, maxAttempts: pipeline.maxAttempts };
  if (database.pgPool) {
    // New jobs reach PostgreSQL workers by NOTIFY; polling only finds jobs scheduled for later
    // (retries). Every idle graphile-worker pool scans the queue at each poll, so not too often.
    const pollMs = Math.max(pipeline.pollMs, PG_MIN_POLL_MS);
    return withJobTracing(graphileJobQueue(database.db, database.pgPool, { ...common, pollMs, schema: database.jobsSchema }));
  }
  return withJobTracing(sqliteJobQueue(database.db, { ...common, retrySchedule: pipeline.retrySchedule }));
}
