// What a self-hoster needs to see when notifications silently do not arrive: is a worker running,
// how deep is the queue, how old is its oldest due job, how many deliveries failed today, is SMTP set,
// does Redis answer, which outside service is failing.
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { toIsoOrNull } from '../db/values.ts';
import type { Dependencies, DependencyChecks } from '../health/dependencies.ts';
import { providerStates, type ProviderState } from '../health/providers.ts';

export interface Health {
  engine: string;
  /** Queue and worker figures are the whole server's: shown to its operator only. */
  serverWide: boolean;
  /** Whether the database and Redis answer (src/health/dependencies.ts). */
  dependencies: Dependencies;
  /** The outside services this process called, failing ones first. */
  providers: ProviderState[];
  embeddedWorker: boolean;
  /** PostgreSQL: worker processes whose lease was renewed lately; SQLite: null (workers hold no lease while idle). */
  workersSeen: number | null;
  queueDepth: number;
  oldestDueJob: string | null;
  failedDeliveriesLastDay: number;
  smtpConfigured: boolean;
  /** Submissions held until the malware scanner answers (the operator: the whole server's; a tenant: theirs); null without INTAKE_CLAMAV_URL. */
  scansHeld: number | null;
}

/**
 * Failed deliveries are those of the account's own forms; the queue and the workers are the whole
 * server's, read only for its operator (`serverWide`): other tenants learn nothing of each other's
 * load. The database, Redis and the outside services are the same for every tenant.
 */
export async function readHealth(
  database: Database, config: Config, checks: DependencyChecks, accountId: string, serverWide: boolean, now = new Date(),
): Promise<Health> {
  const { db } = database;
  const dependencies = await checks.check();
  const nowIso = now.toISOString();
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  let queueDepth = 0;
  let oldest: string | Date | null = null;
  let workersSeen: number | null = null;
  if (!serverWide) {
    // nothing server-wide is read
  } else if (database.engine === 'postgres') {
    const jobs = sql.id(database.jobsSchema, 'jobs');
    const { rows } = await sql<{ depth: string; oldest: Date | null }>`
      select count(*) as depth, min(run_at) filter (where run_at <= now() and locked_at is null) as oldest
      from ${jobs} where attempts < max_attempts`.execute(db);
    queueDepth = Number(rows[0]?.depth ?? 0);
    oldest = rows[0]?.oldest ?? null;
    const leaseAgo = new Date(now.getTime() - config.pipeline.leaseMs).toISOString();
    const seen = await db.selectFrom('worker_leases').select((eb) => eb.fn.countAll().as('n')).where('renewed_at', '>', leaseAgo).executeTakeFirst();
    workersSeen = Number(seen?.n ?? 0);
  } else {
    const row = await db
      .selectFrom('jobs')
      .select((eb) => [eb.fn.countAll().as('depth'), eb.fn.min('run_at').as('oldest')])
      .where('failed_at', 'is', null)
      .executeTakeFirst();
    queueDepth = Number(row?.depth ?? 0);
    const due = await db.selectFrom('jobs').select((eb) => eb.fn.min('run_at').as('oldest')).where('failed_at', 'is', null).where('run_at', '<=', nowIso).where('locked_by', 'is', null).executeTakeFirst();
    oldest = (due?.oldest as string | null) ?? null;
  }
  const failed = await db
    .selectFrom('deliveries')
    .innerJoin('destinations', 'destinations.id', 'deliveries.destination_id')
    .innerJoin('forms', 'forms.id', 'destinations.form_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('forms.account_id', '=', accountId)
    .where('deliveries.status', '=', 'failed')
    .where('deliveries.created_at', '>', dayAgo)
    .executeTakeFirst();
  return {
    scansHeld: dependencies.malwareScanner ? await scansHeld(database, serverWide ? null : accountId) : null,
    engine: database.engine,
    serverWide,
    dependencies,
    providers: providerStates(),
    embeddedWorker: config.pipeline.embeddedWorker,
    workersSeen,
    queueDepth,
    oldestDueJob: toIsoOrNull(oldest),
    failedDeliveriesLastDay: Number(failed?.n ?? 0),
    smtpConfigured: config.delivery.smtp !== null,
  };
}

/**
 * Submissions waiting for a verdict (reason `scan_waiting: …`, src/pipeline/processor.ts). Read from
 * the files not yet scanned, which are few, joined to their submissions by key: no scan of the
 * submissions table, which has no index on its processing status.
 */
async function scansHeld(database: Database, accountId: string | null): Promise<number> {
  let query = database.db
    .selectFrom('submission_files')
    .innerJoin('submissions', 'submissions.id', 'submission_files.submission_id')
    .select((eb) => eb.fn.count<number>('submissions.id').distinct().as('n'))
    .where('submission_files.scanned_at', 'is', null)
    .where('submissions.processing_status', '=', 'pending')
    .where('submissions.processing_reason', 'like', 'scan_waiting:%');
  if (accountId !== null) query = query.where('submission_files.account_id', '=', accountId);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}
