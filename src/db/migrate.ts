// Migrations live in code and run on start. Kysely's migrator serialises concurrent runs:
// PostgreSQL through an advisory lock, SQLite through the write lock its `begin immediate` takes.
// On PostgreSQL, graphile-worker's own migrations follow (they take their own lock), then the
// function through which the batch function adds jobs to its schema (processing-jobs-bridge.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely/migration';
import { migrateGraphileSchema } from '../jobs/graphile-queue.ts';
import { ensureProcessingJobsBridge } from '../jobs/processing-jobs-bridge.ts';
import type { Database } from './database.ts';
import { columnTypes, type ColumnTypes, type Engine } from './migrations/column-types.ts';
import * as core from './migrations/0001_core.ts';
import * as pipeline from './migrations/0002_pipeline.ts';
import * as listing from './migrations/0003_listing.ts';
import * as deliveries from './migrations/0004_deliveries.ts';
import * as knowledgeBases from './migrations/0005_knowledge_bases.ts';
import * as spamLearning from './migrations/0006_spam_learning.ts';
import * as coordination from './migrations/0007_coordination.ts';
import * as scopesAndAudit from './migrations/0008_scopes_and_audit.ts';
import * as dashboardSessions from './migrations/0009_dashboard_sessions.ts';
import * as batchInserts from './migrations/0010_batch_inserts.ts';
import * as repeatFingerprints from './migrations/0011_repeat_fingerprints.ts';
import * as deliveriesBySubmission from './migrations/0012_deliveries_by_submission.ts';
import * as security from './migrations/0013_security.ts';
import * as ownerData from './migrations/0014_owner_data.ts';
import * as submissionStats from './migrations/0020_submission_stats.ts';
import * as oauth from './migrations/0021_oauth.ts';
import * as readAndDone from './migrations/0023_read_and_done.ts';
import * as dashboardFlashes from './migrations/0024_dashboard_flashes.ts';
import * as dailyCounts from './migrations/0025_daily_counts.ts';
import * as oauthHashedIds from './migrations/0026_oauth_hashed_ids.ts';
import * as erasureReach from './migrations/0028_erasure_reach.ts';
import * as htmlForms from './migrations/0030_html_forms.ts';
import * as captcha from './migrations/0031_captcha.ts';
import * as replyConfidence from './migrations/0032_reply_confidence.ts';
import * as submissionFiles from './migrations/0034_submission_files.ts';
import * as fileScans from './migrations/0039_file_scans.ts';
import * as spamSensitivity from './migrations/0040_spam_sensitivity.ts';
import * as workspaces from './migrations/0041_workspaces.ts';
import * as auditMembers from './migrations/0042_audit_members.ts';
import * as triageMembers from './migrations/0043_triage_members.ts';
import * as oneStatementBatch from './migrations/0044_one_statement_batch.ts';
import * as staticAddJobs from './migrations/0045_static_add_jobs.ts';
import * as tracedBatchJobs from './migrations/0046_traced_batch_jobs.ts';
import * as slotHolders from './migrations/0047_slot_holders.ts';

type CodeMigration = { up(db: Kysely<any>, t: ColumnTypes): Promise<void> };

const MIGRATIONS: Record<string, CodeMigration> = {
  '0001_core': core,
  '0002_pipeline': pipeline,
  '0003_listing': listing,
  '0004_deliveries': deliveries,
  '0005_knowledge_bases': knowledgeBases,
  '0006_spam_learning': spamLearning,
  '0007_coordination': coordination,
  '0008_scopes_and_audit': scopesAndAudit,
  '0009_dashboard_sessions': dashboardSessions,
  '0010_batch_inserts': batchInserts,
  '0011_repeat_fingerprints': repeatFingerprints,
  '0012_deliveries_by_submission': deliveriesBySubmission,
  '0013_security': security,
  '0014_owner_data': ownerData,
  '0020_submission_stats': submissionStats,
  '0021_oauth': oauth,
  '0023_read_and_done': readAndDone,
  '0024_dashboard_flashes': dashboardFlashes,
  '0025_daily_counts': dailyCounts,
  '0026_oauth_hashed_ids': oauthHashedIds,
  '0028_erasure_reach': erasureReach,
  '0030_html_forms': htmlForms,
  '0031_captcha': captcha,
  '0032_reply_confidence': replyConfidence,
  '0034_submission_files': submissionFiles,
  '0039_file_scans': fileScans,
  '0040_spam_sensitivity': spamSensitivity,
  '0041_workspaces': workspaces,
  '0042_audit_members': auditMembers,
  '0043_triage_members': triageMembers,
  '0044_one_statement_batch': oneStatementBatch,
  '0045_static_add_jobs': staticAddJobs,
  '0046_traced_batch_jobs': tracedBatchJobs,
  '0047_slot_holders': slotHolders,
};

class CodeMigrationProvider implements MigrationProvider {
  readonly #types: ColumnTypes;
  constructor(engine: Engine) {
    this.#types = columnTypes(engine);
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const types = this.#types;
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, m]) => [name, {
        // No statement timeout applies (withMigrationConnection): a backfill may run long.
        up: (db: Kysely<any>) => m.up(db, types),
      }]),
    );
  }
}

/**
 * Migrations run on a connection of their own, without the pool's statement timeout: they may wait
 * for the migration lock another starting process holds, or for a table lock, and run long on a
 * loaded server; a timeout meant for requests would stop the process at start (seen with 100 ms
 * while other processes migrated). Both Kysely's migrator and graphile-worker's use it.
 */
async function withMigrationConnection<T>(database: Database, run: (db: Kysely<any>, pool: pg.Pool | null) => Promise<T>): Promise<T> {
  if (!database.pgPool) return run(database.db as Kysely<any>, null);
  const { default: { Pool } } = await import('pg');
  const pool = new Pool({ ...database.pgPool.options, max: 1, statement_timeout: 0 });
  // As the app's pool (database.ts): an idle connection's error (the server restarting) shows again on
  // the next query, which fails the migration; without listeners it would crash the process, and
  // graphile-worker warns on stderr.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  try {
    return await run(db, pool);
  } finally {
    await db.destroy();
  }
}

/** invalid_schema_name, undefined_table, undefined_column: what DDL elsewhere does to a catalog listing. */
const CATALOG_RACES = new Set(['3F000', '42P01', '42703']);

/** Kysely's look for its own tables, before any migration ran, failed on DDL in another schema. */
function isCatalogRace(error: unknown, results: unknown[] | undefined): boolean {
  return !results?.length && CATALOG_RACES.has((error as { code?: string } | undefined)?.code ?? '');
}

async function currentSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  if (!rows[0]?.schema) throw new Error('PostgreSQL has no current schema: check the search_path of DATABASE_URL');
  return rows[0].schema;
}

/** Applies every pending migration; returns the names applied by this call. */
export function migrateToLatest(database: Database): Promise<string[]> {
  return migrate(database, (migrator) => migrator.migrateToLatest());
}

/** Applies the pending migrations up to `name` and no further: what a database older than this code holds (tests of a migration's backfill). */
export function migrateUpTo(database: Database, name: keyof typeof MIGRATIONS): Promise<string[]> {
  return migrate(database, (migrator) => migrator.migrateTo(name));
}

async function migrate(database: Database, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  return withMigrationConnection(database, async (db, pool) => {
    const migrator = new Migrator({
      db,
      provider: new CodeMigrationProvider(database.engine),
      // Unless told, Kysely looks for its bookkeeping tables in every schema and may find another
      // database's (another tenant's, another test's) and skip creating its own.
      ...(database.engine === 'postgres' && { migrationTableSchema: await currentSchema(db) }),
    });
    let { error, results } = await run(migrator);
    // Kysely looks for its table by listing every schema's tables and columns; a schema another tenant
    // (or test) drops meanwhile, or graphile-worker's migration altering its tables in another schema,
    // fails that listing (seen: invalid_schema_name; "column job_count of relation job_queues does not
    // exist"). Nothing was applied: look again.
    for (let retry = 0; retry < 5 && isCatalogRace(error, results); retry++) {
      await sleep(50 * 2 ** retry);
      ({ error, results } = await run(migrator));
    }
    if (error) throw error;
    if (pool) {
      await migrateGraphileSchema(pool, database.jobsSchema);
      await ensureProcessingJobsBridge(pool, database.jobsSchema);
    }
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  });
}
