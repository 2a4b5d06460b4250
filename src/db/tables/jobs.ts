// The job queue, worker leases, schedules, and the counters rate limits and delivery slots share
// across processes.
import type { Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

/** SQLite's job queue; PostgreSQL uses graphile-worker's. */
export interface JobsTable {
  id: Generated<number>;
  task: string;
  payload: string;
  run_at: string;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  failed_at: string | null;
  created_at: string;
}

export interface WorkerLeasesTable {
  worker_id: string;
  renewed_at: Timestamp;
  /** The session of the process that renews the lease (PostgreSQL's pid and start of that backend). */
  backend_pid: number | null;
  backend_start: Timestamp | null;
}

/** When a periodic job is next due; the process that moves it forward enqueues the run. */
export interface ScheduledRunsTable {
  name: string;
  next_run_at: Timestamp;
}

/** PostgreSQL only: rate-limit windows shared by every process when there is no Redis. */
export interface RateLimitCountersTable {
  key: string;
  count: number;
  expires_at: Timestamp;
}

/** PostgreSQL only: a slot taken for work in flight (a delivery to one destination) until released or expired. */
export interface InFlightSlotsTable {
  key: string;
  token: string;
  expires_at: Timestamp;
  /** The holding process's session (src/limits/holder-session.ts); null for slots taken before 0047. */
  holder_pid: number | null;
  holder_start: Timestamp | null;
}
