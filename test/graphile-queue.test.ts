// PostgreSQL only: graphile-worker stops every pool in a database when any schema in it is
// migrated across a breaking revision. Intake's workers must keep working when another Intake
// (or another test) sets up its job tables in the same database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestStore, ENGINE } from './helpers.ts';
import { createForm, startPipelineApp, submitAndSettle, type PipelineApp } from './pipeline-helpers.ts';
import { migrateGraphileSchema } from '../src/jobs/graphile-queue.ts';

describe('graphile-worker queue', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: PipelineApp;
  before(async () => {
    t = await startPipelineApp();
  });
  after(() => t?.close());

  it('keeps processing after another jobs schema is created in the same database', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    assert.equal((await submitAndSettle(t, key, form, { name: 'Before', email: 'a@example.com' })).processing_status, 'completed');
    const other = await createTestStore();
    try {
      await migrateGraphileSchema(t.database.pgPool!, other.env.INTAKE_PG_JOBS_SCHEMA!);
      const after = await submitAndSettle(t, key, form, { name: 'After', email: 'b@example.com' });
      assert.equal(after.processing_status, 'completed');
      assert.ok(t.log.some((l) => l.message.includes('stopped unasked')), 'the pool was stopped and started again');
      assert.notEqual(process.exitCode, 57);
    } finally {
      await other.cleanup();
    }
  });
});
