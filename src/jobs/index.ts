// The job queue of the configured engine.
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { graphileJobQueue } from './graphile-queue.ts';
import type { JobQueue } from './queue.ts';
import { sqliteJobQueue } from './sqlite-queue.ts';

export function jobQueueFor(database: Database, pipeline: Config['pipeline']): JobQueue {
  const common = { leaseMs: pipeline.leaseMs, pollMs: pipeline.pollMs, maxAttempts: pipeline.maxAttempts };
  if (database.pgPool) return graphileJobQueue(database.db, database.pgPool, { ...common, schema: database.jobsSchema });
  return sqliteJobQueue(database.db, { ...common, backoff: { baseMs: pipeline.retryBaseMs, maxMs: pipeline.retryMaxMs } });
}
