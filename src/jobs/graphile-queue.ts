// PostgreSQL's job queue is graphile-worker: jobs are rows in its schema, added by its own SQL
// function inside our transaction, and workers on any machine hear of them through LISTEN/NOTIFY.
// graphile-worker frees a crashed worker's jobs only after four hours; leases close that gap:
// every worker process renews a lease for its worker ids every couple of seconds, from a database
// session of its own, and any process unlocks the jobs of workers whose lease has run out. A
// process that died (SIGKILL, OOM) takes its session with it, and PostgreSQL sees that at once:
// a lease whose session is gone and which missed its heartbeats is free within seconds. A process
// that is only cut off from the database reconnects and renews within those seconds, and if it
// cannot, it cannot finish its jobs either.
import { EventEmitter } from 'node:events';
import type { Logger as GraphileLogger, Runner } from 'graphile-worker';
import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { ownSession, sessionLives } from '../db/own-session.ts';
import type { Db } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { JobHandler, JobLog, JobQueue, JobSpec, RunningWorker, WorkerOptions } from './queue.ts';

export interface GraphileQueueOptions {
  schema: string;
  leaseMs: number;
  /** How often a process renews its leases; a lease whose session is gone is free after 2.5 of these. */
  heartbeatMs?: number;
  pollMs: number;
  /** Runs of a job whose handler keeps throwing (graphile-worker's own backoff between them). */
  maxAttempts: number;
  /** Migrates the job schema before a restart; a test seam, migrateGraphileSchema otherwise. */
  migrate?: (pool: pg.Pool, schema: string) => Promise<void>;
}

const RESTART_DELAY_MS = 250;
const RESTART_MAX_DELAY_MS = 10_000;

/** What graphile-worker sets process.exitCode to when it stops over a breaking migration. */
const BREAKING_MIGRATION_EXIT_CODE = 57;

export async function migrateGraphileSchema(pool: pg.Pool, schema: string): Promise<void> {
  const { Logger, runMigrations } = await graphileWorker();
  await runMigrations({ pgPool: pool, schema, logger: new Logger(() => () => {}) });
}

/** Loaded on first use: about 20 MB that a process on SQLite never needs. */
const graphileWorker = () => import('graphile-worker');

function loggerFor(Logger: typeof import('graphile-worker').Logger, log: JobLog): GraphileLogger {
  return new Logger(() => (level, message, meta) => {
    if (level === 'error') log.error({ ...meta }, message);
  });
}

export function graphileJobQueue(db: Db, pool: pg.Pool, options: GraphileQueueOptions): JobQueue {
  const fn = (name: string) => sql.id(options.schema, name);
  const migrate = options.migrate ?? migrateGraphileSchema;
  // One lease session for the process's workers (pipeline and delivery), closed with the last.
  const session = leaseSession(pool);
  let workersRunning = 0;

  const leaseSeconds = options.leaseMs / 1000;
  const heartbeatMs = options.heartbeatMs ?? Math.max(100, Math.min(2_000, Math.floor(options.leaseMs / 3)));
  const graceSeconds = (heartbeatMs * 2.5) / 1000;

  // Abandoned: locked longer than a lease by a worker whose lease is stale, or by a worker whose
  // session is gone and which missed its last heartbeats.
  async function unlockAbandoned(log: JobLog): Promise<void> {
    const { rows } = await sql<{ locked_by: string }>`
      select distinct j.locked_by from ${fn('jobs')} j
      where j.locked_by is not null and (
        (j.locked_at < now() - make_interval(secs => ${leaseSeconds})
          and not exists (select 1 from worker_leases l where l.worker_id = j.locked_by and l.renewed_at > now() - make_interval(secs => ${leaseSeconds})))
        or exists (
          select 1 from worker_leases l
          where l.worker_id = j.locked_by and l.renewed_at < now() - make_interval(secs => ${graceSeconds}) and l.backend_pid is not null
            and not ${sessionLives('l.backend_pid', 'l.backend_start')}))`
      .execute(db);
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.locked_by);
    await sql`select ${fn('force_unlock_workers')}(${ids}::text[])`.execute(db);
    await sql`delete from worker_leases where worker_id = any(${ids}::text[])`.execute(db);
    log.info({ workers: ids }, 'released the jobs of workers that are gone');
  }
  // PostgreSQL plans graphile-worker's job fetch from the job table's statistics. A backlog that
  // arrives between two of autovacuum's looks (a minute apart) leaves them saying the table is
  // empty, and every fetch then reads and sorts all waiting jobs (in one run on the loaded machine,
  // 7.8 ms of server CPU time per job with 20,000 waiting, 4.5 once analysed): a table that changed
  // more than its size since its last analysis is analysed now.
  async function analyzeIfGrown(): Promise<void> {
    const { rows } = await sql<{ stale: boolean }>`
      select s.n_mod_since_analyze > greatest(1000, c.reltuples) as stale
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.relid = to_regclass(quote_ident(${options.schema}) || '._private_jobs')`.execute(db);
    if (rows[0]?.stale) await sql`analyze ${fn('_private_jobs')}`.execute(db);
  }

  // The sweep reads every locked job: once per heartbeat and process, whichever worker's timer comes first.
  let lastSweep = 0;
  async function sweep(log: JobLog): Promise<void> {
    const now = Date.now();
    if (now - lastSweep < heartbeatMs / 2) return;
    lastSweep = now;
    await unlockAbandoned(log);
    await analyzeIfGrown();
  }

  async function add(executor: Db | Transaction<Tables>, jobs: JobSpec[]): Promise<void> {
    if (jobs.length === 0) return;
    const tasks = jobs.map((j) => j.task);
    const payloads = jobs.map((j) => JSON.stringify(j.payload));
    const runAts = jobs.map((j) => j.runAt?.toISOString() ?? null);
    await sql`
      select count(*) from ${fn('add_jobs')}(array(
        select (t.task, t.payload::json, null, t.run_at, ${options.maxAttempts}::smallint, null, null, null)::${fn('job_spec')}
        from unnest(${tasks}::text[], ${payloads}::text[], ${runAts}::timestamptz[]) as t(task, payload, run_at)
      ))`.execute(executor);
  }

  return {
    enqueueInTransaction: (tx, jobs) => add(tx, jobs),
    enqueue: (jobs) => add(db, jobs),
    graphile: { maxAttempts: options.maxAttempts },
    // Committed jobs reach every worker through NOTIFY.
    wake() {},
    committedElsewhere() {},

    async startWorker(handlers: Record<string, JobHandler>, worker: WorkerOptions): Promise<RunningWorker> {
      const { Logger, run } = await graphileWorker();
      const ownIds = new Set<string>();
      const events = new EventEmitter();
      events.on('pool:create', ({ workerPool }: { workerPool: { id: string } }) => ownIds.add(workerPool.id));
      events.on('worker:create', ({ worker: w }: { worker: { workerId: string } }) => ownIds.add(w.workerId));

      const taskList = Object.fromEntries(
        Object.entries(handlers).map(([task, handler]) => [
          task,
          (payload: unknown, helpers: { job: { id: string; attempts: number } }) =>
            handler(payload as Record<string, unknown>, { jobId: helpers.job.id, attempt: helpers.job.attempts }),
        ]),
      );
      const runnerOptions = {
        pgPool: pool,
        schema: options.schema,
        taskList,
        concurrency: worker.concurrency,
        pollInterval: options.pollMs,
        noHandleSignals: true,
        logger: loggerFor(Logger, worker.log),
        events: events as never,
        // Completions sent together: one round trip for the jobs that finish in the same turn. (A
        // local queue, fetching for the whole pool at once, was tried and left out: a pool can hoard
        // jobs its busy workers cannot start, which slow deliveries would suffer from.)
        preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      };
      let stopping = false;
      let runner: Runner = await run(runnerOptions);
      // graphile-worker stops every pool of the database when any schema in it is migrated across a
      // breaking revision (its NOTIFY is not per schema), as a new Intake instance or test database
      // does. Our own schema is checked by its migrations, which refuse one too new for this code;
      // when they pass, working on is safe, so a pool that stopped unasked is started again.
      // A restart that fails (another schema's migration racing ours, a connection lost) is tried
      // again until it works: giving up once left a process renewing the leases of workers that took
      // nothing, so nobody else freed their jobs either. The ids of a stopped pool are dropped from
      // the leases at once: their jobs become free to others when the lease runs out.
      const supervise = (current: Runner): void => {
        void current.promise.catch(() => {}).then(async () => {
          if (stopping) return;
          ownIds.clear();
          worker.log.error({ schema: options.schema }, 'graphile-worker stopped unasked; starting it again');
          for (let attempt = 1; !stopping; attempt++) {
            try {
              await migrate(pool, options.schema);
              if (process.exitCode === BREAKING_MIGRATION_EXIT_CODE) process.exitCode = undefined;
              if (stopping) return;
              runner = await run(runnerOptions);
              // stop() may have come while this pool was starting: it stopped the old one only.
              if (stopping) {
                await runner.stop().catch(() => {});
                return;
              }
              supervise(runner);
              return;
            } catch (error) {
              worker.log.error({ err: error, schema: options.schema, attempt }, 'graphile-worker cannot start again yet');
              await new Promise((resolve) => setTimeout(resolve, Math.min(RESTART_MAX_DELAY_MS, RESTART_DELAY_MS * 2 ** (attempt - 1))));
            }
          }
        });
      };
      supervise(runner);

      workersRunning++;
      async function renew(): Promise<void> {
        if (ownIds.size === 0) return;
        // Skipped if this worker has stopped by its turn: the session may be closed by then.
        await session.query(worker.log, () => !stopping,
          `insert into worker_leases (worker_id, renewed_at, backend_pid, backend_start)
           select id, now(), pg_backend_pid(), (select backend_start from pg_stat_activity where pid = pg_backend_pid())
           from unnest($1::text[]) as id
           on conflict (worker_id) do update
           set renewed_at = excluded.renewed_at, backend_pid = excluded.backend_pid, backend_start = excluded.backend_start`,
          [[...ownIds]],
        );
      }
      const tick = () =>
        renew()
          .then(() => sweep(worker.log))
          .catch((error: unknown) => worker.log.error({ err: error }, 'could not renew or sweep worker leases'));
      await tick();
      const timer = setInterval(tick, heartbeatMs);

      return {
        async stop() {
          stopping = true;
          clearInterval(timer);
          await runner.stop().catch(() => {}); // already stopped: nothing left to wait for
          if (ownIds.size > 0) await sql`delete from worker_leases where worker_id = any(${[...ownIds]}::text[])`.execute(db);
          if (--workersRunning === 0) await session.close();
        },
      };
    },
  };
}

/** The connection the process's worker leases name: its own, not the pool's (src/db/own-session.ts). */
function leaseSession(pool: pg.Pool) {
  const session = ownSession(pool, async () => undefined);
  /** The last statement sent: the next waits for it. */
  let last: Promise<unknown> = Promise.resolve();
  return {
    /**
     * One statement at a time: each of the process's workers renews on its own timer, and they fire
     * together. pg queued overlapping calls itself, with a deprecation warning; pg 9 refuses them.
     */
    query(log: JobLog, wanted: () => boolean, text: string, values: unknown[]): Promise<unknown> {
      // Asked whether it is still wanted when its turn comes: a stopped worker's statement would open
      // a new session after the last worker closed it, and keep the process alive.
      const run = last.then(async () => {
        if (!wanted()) return undefined;
        const { client } = await session.open((error) => log.error({ err: error }, 'the worker lease session was lost; reconnecting'));
        return client.query(text, values);
      });
      last = run.catch(() => {});
      return run;
    },
    async close(): Promise<void> {
      await last; // the statement under way ends first
      await session.close();
    },
  };
}
