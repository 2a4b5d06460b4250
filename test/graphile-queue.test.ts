// PostgreSQL only: graphile-worker stops every pool in a database when any schema in it is
// migrated across a breaking revision. Intake's workers must keep working when another Intake
// (or another test) sets up its job tables in the same database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestStore, ENGINE } from './helpers.ts';
import { createForm, startPipelineApp, submitAndSettle, type PipelineApp } from './pipeline-helpers.ts';
import { graphileJobQueue, migrateGraphileSchema } from '../src/jobs/graphile-queue.ts';

// pg warns (once a process) when a client is given a statement while it runs one; pg 9 will throw.
const overlapping: string[] = [];
process.on('warning', (warning) => {
  if (/already executing a query/.test(warning.message)) overlapping.push(String(warning.stack));
});

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

  it('starts its pool again after a stop even when the first restarts fail', async () => {
    const schema = `${t.database.jobsSchema}_restart`;
    await migrateGraphileSchema(t.database.pgPool!, schema);
    let failuresLeft = 2;
    const queue = graphileJobQueue(t.database.db, t.database.pgPool!, {
      schema, leaseMs: 3_000, pollMs: 1_000, maxAttempts: 3,
      migrate: async (pool, name) => {
        if (failuresLeft-- > 0) throw new Error('migration raced another one');
        await migrateGraphileSchema(pool, name);
      },
    });
    const ran: string[] = [];
    const log: string[] = [];
    const worker = await queue.startWorker({ probe: async (payload) => void ran.push(String(payload.n)) }, {
      concurrency: 2,
      log: { info: () => {}, error: (_object, message) => void log.push(message) },
    });
    const other = await createTestStore();
    try {
      await migrateGraphileSchema(t.database.pgPool!, other.env.INTAKE_PG_JOBS_SCHEMA!);
      await queue.enqueue([{ task: 'probe', payload: { n: 1 } }]);
      for (let waited = 0; ran.length === 0 && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(ran, ['1']);
      assert.equal(log.filter((m) => m.includes('cannot start again yet')).length, 2);
    } finally {
      await worker.stop();
      await other.cleanup();
      // The store's cleanup drops its own schemas, not this one.
      await t.database.pgPool!.query(`drop schema if exists "${schema}" cascade`);
    }
  });

  it('renews the leases of a process\'s workers one statement at a time on its lease session', async () => {
    const schema = `${t.database.jobsSchema}_renew`;
    await migrateGraphileSchema(t.database.pgPool!, schema);
    const queue = graphileJobQueue(t.database.db, t.database.pgPool!, { schema, leaseMs: 3_000, pollMs: 1_000, maxAttempts: 3, heartbeatMs: 10 });
    const log = { info: () => {}, error: () => {} };
    // Four workers, as `serve` runs (pipeline, deliveries, replies, retention), their timers firing together.
    const workers = await Promise.all(Array.from({ length: 4 }, () => queue.startWorker({ probe: async () => {} }, { concurrency: 1, log })));
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await t.database.pgPool!.query(`drop schema if exists "${schema}" cascade`);
    }
    assert.deepEqual(overlapping, [], 'no statement was sent while another ran');
  });
});
