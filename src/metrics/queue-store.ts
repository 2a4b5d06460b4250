// The job queue's figures per queue (task), read at scrape time: SQLite's `jobs` table, or
// graphile-worker's `jobs` view on PostgreSQL. One grouped query; the tables hold only unfinished
// and failed jobs (finished ones are deleted), so it reads little even on a busy server.
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { QueueFigures } from './metrics.ts';

interface Row {
  queue: string;
  queued: number | string;
  scheduled: number | string;
  running: number | string;
  failed: number | string;
  oldest: string | Date | null;
}

function figures(rows: Row[], now: number): QueueFigures[] {
  return rows.map((row) => {
    const oldest = row.oldest === null ? null : new Date(row.oldest).getTime();
    return {
      queue: row.queue,
      queued: Number(row.queued),
      scheduled: Number(row.scheduled),
      running: Number(row.running),
      failed: Number(row.failed),
      oldestAgeSeconds: oldest === null ? 0 : Math.max(0, (now - oldest) / 1000),
    };
  });
}

export function queueFigures(database: Database, clock: () => Date = () => new Date()): () => Promise<QueueFigures[]> {
  if (database.engine === 'postgres') {
    const jobs = sql.id(database.jobsSchema, 'jobs');
    // graphile-worker counts an attempt when it locks a job: a locked job runs; an unlocked one with
    // no attempt left has failed for good.
    return async () => {
      const now = clock();
      const { rows } = await sql<Row>`
        select task_identifier as queue,
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= ${now}) as queued,
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at > ${now}) as scheduled,
          count(*) filter (where locked_at is not null) as running,
          count(*) filter (where locked_at is null and attempts >= max_attempts) as failed,
          min(run_at) filter (where locked_at is null and attempts < max_attempts and run_at <= ${now}) as oldest
        from ${jobs} group by task_identifier`.execute(database.db);
      return figures(rows, now.getTime());
    };
  }
  return async () => {
    const now = clock();
    const at = now.toISOString();
    const { rows } = await sql<Row>`
      select task as queue,
        sum(failed_at is null and locked_by is null and run_at <= ${at}) as queued,
        sum(failed_at is null and locked_by is null and run_at > ${at}) as scheduled,
        sum(failed_at is null and locked_by is not null) as running,
        sum(failed_at is not null) as failed,
        min(case when failed_at is null and locked_by is null and run_at <= ${at} then run_at end) as oldest
      from jobs group by task`.execute(database.db);
    return figures(rows, now.getTime());
  };
}
