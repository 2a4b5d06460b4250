// intake_add_processing_jobs (src/jobs/processing-jobs-bridge.ts, migration 0045): the function that
// names graphile-worker's schema for the batch function's static add_jobs call. Written at start for
// the configured schema, rewritten only when that changes, safe when processes start together.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { ensureProcessingJobsBridge } from '../src/jobs/processing-jobs-bridge.ts';
import { migrateGraphileSchema } from '../src/jobs/graphile-queue.ts';
import { insertBatchInOneStatement } from '../src/submissions/postgres-batch.ts';
import type { NewSubmission } from '../src/submissions/store.ts';
import { createForm, ENGINE, startTestApp, type TestApp } from './helpers.ts';

describe('the jobs bridge (PostgreSQL)', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: TestApp;
  let formId: string;
  let accountId: string;
  let moved: string;
  before(async () => {
    t = await startTestApp();
    moved = `${t.database.jobsSchema}_moved`;
    const key = await t.createKey('bridge@example.com');
    formId = (await createForm(t, key)).id;
    accountId = (await t.database.db.selectFrom('accounts').select('id').where('email', '=', 'bridge@example.com').executeTakeFirstOrThrow()).id;
  });
  after(async () => {
    await sql`drop schema if exists ${sql.id(moved)} cascade`.execute(t.database.db);
    await t.close();
  });

  const pool = () => t.database.pgPool!;
  const bridge = async () => (await sql<{ prosrc: string; xmin: string }>`
    select prosrc, xmin::text from pg_proc where proname = 'intake_add_processing_jobs' and pronamespace = current_schema()::regnamespace`
    .execute(t.database.db)).rows;
  const item = (): NewSubmission => ({
    id: randomUUID(), formId, accountId, versionId: 'v', data: { name: 'Ada' },
    metadata: { ip: '127.0.0.1', user_agent: null, referer: null, origin: null, utm: {} },
    idempotencyKey: null, idempotencyHash: null, fingerprint: 'f', createdAt: new Date().toISOString(), submissionCap: null,
  });
  /** How many jobs in `schema` name one of `ids`. */
  const jobsIn = async (schema: string, ids: string[]) => {
    const { rows } = await sql<{ payload: Record<string, unknown> }>`select payload from ${sql.id(schema, '_private_jobs')}`.execute(t.database.db);
    return rows.filter(({ payload }) => ((payload.submissionIds as string[] | undefined) ?? [payload.submissionId as string]).some((id) => ids.includes(id))).length;
  };

  it('is written at start for the configured jobs schema, once, in the app\'s own schema', async () => {
    const [fn] = await bridge();
    assert.ok(fn, 'the function exists after start');
    assert.match(fn.prosrc, new RegExp(`"${t.database.jobsSchema}"\\.add_jobs`));
    await ensureProcessingJobsBridge(pool(), t.database.jobsSchema);
    assert.equal((await bridge())[0]!.xmin, fn.xmin, 'the same schema again leaves the function as it was');
  });

  it('sends later batches\' jobs to another schema when started with it, and back', async () => {
    await migrateGraphileSchema(pool(), moved);
    await ensureProcessingJobsBridge(pool(), moved);
    assert.match((await bridge())[0]!.prosrc, new RegExp(`"${moved}"\\.add_jobs`));
    const there = [item(), item()];
    assert.deepEqual((await insertBatchInOneStatement(t.database.db, there, t.services.queue.graphile!)).map((o) => o.kind), ['created', 'created']);
    assert.equal(await jobsIn(moved, there.map((s) => s.id)), 1, 'one job for the two, in the schema now configured');
    assert.equal(await jobsIn(t.database.jobsSchema, there.map((s) => s.id)), 0);

    await ensureProcessingJobsBridge(pool(), t.database.jobsSchema);
    const back = [item()];
    await insertBatchInOneStatement(t.database.db, back, t.services.queue.graphile!);
    assert.equal(await jobsIn(t.database.jobsSchema, back.map((s) => s.id)), 1);
    assert.equal(await jobsIn(moved, back.map((s) => s.id)), 0);
  });

  it('survives processes starting together with the same or different schemas', async () => {
    const schemas = Array.from({ length: 10 }, (_, i) => (i % 2 ? moved : t.database.jobsSchema));
    // Each on a connection of its own, as separate processes would be.
    const results = await Promise.allSettled(schemas.map(async (schema) => {
      const { default: pg } = await import('pg');
      const own = new pg.Pool({ ...t.database.pgPool!.options, max: 1 });
      try { await ensureProcessingJobsBridge(own, schema); } finally { await own.end(); }
    }));
    assert.deepEqual(results.filter((r) => r.status === 'rejected'), []);
    await ensureProcessingJobsBridge(pool(), t.database.jobsSchema);
    const last = [item()];
    await insertBatchInOneStatement(t.database.db, last, t.services.queue.graphile!);
    assert.equal(await jobsIn(t.database.jobsSchema, last.map((s) => s.id)), 1);
  });
});
