// A stored batch of submissions gets one processing job per PROCESSING_JOB_SIZE of them, and a
// worker processes such a job's submissions together: one that throws is retried on its own while
// the others complete.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { RunningWorker } from '../src/jobs/queue.ts';
import { startPipelineWorker } from '../src/pipeline/worker.ts';
import { PROCESS_SUBMISSION, PROCESS_SUBMISSIONS, PROCESSING_JOB_SIZE } from '../src/pipeline/tasks.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeProvider } from './fake-provider.ts';
import { ENGINE, startTestApp, type TestApp } from './helpers.ts';
import { createForm, settled, submit, waitFor, type LoggedLine } from './pipeline-helpers.ts';

const MESSAGE = { name: 'Ada', email: 'ada@example.com', message: 'Hello, could you send me your price list for the garden chairs please?' };
const BURST = 2 * PROCESSING_JOB_SIZE + 7;

/** The queued jobs of one task, each with its payload, read from the engine's own queue. */
async function queuedJobs(t: TestApp): Promise<Array<{ task: string; payload: Record<string, unknown> }>> {
  const { rows } = ENGINE === 'postgres'
    // graphile-worker's public view of its jobs leaves their payloads out.
    ? await sql<{ task: string; payload: Record<string, unknown> }>`
        select t.identifier as task, j.payload from ${sql.id(t.database.jobsSchema, '_private_jobs')} j
        join ${sql.id(t.database.jobsSchema, '_private_tasks')} t on t.id = j.task_id`.execute(t.database.db)
    : await sql<{ task: string; payload: string }>`select task, payload from jobs`.execute(t.database.db);
  return rows.map((row) => ({ task: row.task, payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload }));
}

function logInto(lines: LoggedLine[]) {
  return {
    info: (object: object, message: string) => lines.push({ level: 'info', object: object as Record<string, unknown>, message }),
    error: (object: object, message: string) => lines.push({ level: 'error', object: object as Record<string, unknown>, message }),
  };
}

describe('processing jobs of stored batches', () => {
  let t: TestApp;
  let worker: RunningWorker | null = null;
  before(async () => {
    t = await startTestApp({ INTAKE_PIPELINE_RETRY_SCHEDULE: '20ms,40ms' });
  });
  after(async () => {
    await worker?.stop();
    await t?.close();
  });

  it('gives a burst stored together jobs of many submissions each, and processes every one', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const ids = await Promise.all(Array.from({ length: BURST }, () => submit(t, form.endpoint, MESSAGE)));

    const jobs = (await queuedJobs(t)).filter((job) => job.task === PROCESS_SUBMISSION || job.task === PROCESS_SUBMISSIONS);
    const queued = jobs.flatMap((job) => (job.task === PROCESS_SUBMISSIONS ? job.payload.submissionIds as string[] : [job.payload.submissionId as string]));
    assert.deepEqual([...queued].sort(), [...ids].sort(), 'every stored submission has exactly one processing job');
    assert.ok(jobs.every((job) => job.task === PROCESS_SUBMISSION || (job.payload.submissionIds as string[]).length <= PROCESSING_JOB_SIZE));
    assert.ok(jobs.length < ids.length, `${ids.length} submissions stored together share jobs (${jobs.length} jobs)`);

    const lines: LoggedLine[] = [];
    const running = await startPipelineWorker({ config: t.config, database: t.database, queue: t.services.queue, log: logInto(lines), knowledge: t.services.knowledge });
    try {
      for (const id of ids) assert.equal((await settled(t, key, form.id, id)).processing_status, 'completed');
    } finally {
      // Stopped even when an assertion fails, so that it cannot take the next test's jobs.
      await running.stop();
    }
    // Other test files migrating their own job schemas in the same database stop every graphile-worker
    // pool (its NOTIFY is not per schema), which the queue logs and recovers from (graphile-queue.ts).
    const errors = lines.filter((l) => l.level === 'error' && !l.message.startsWith('graphile-worker stopped unasked'));
    assert.deepEqual(errors, []);
  });

  it('retries a submission that throws on its own, while the rest of its job completes', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const ids = await Promise.all(Array.from({ length: PROCESSING_JOB_SIZE }, () => submit(t, form.endpoint, MESSAGE)));
    const shared = (await queuedJobs(t)).find((job) => job.task === PROCESS_SUBMISSIONS && (job.payload.submissionIds as string[]).length > 1);
    assert.ok(shared, 'the burst shares a job');
    const unlucky = (shared.payload.submissionIds as string[])[1]!;

    // One submission's notifications cannot be enqueued, twice: in the transaction its batch shares,
    // then in the one it is recorded in alone; so its processing throws.
    let failures = 0;
    const lines: LoggedLine[] = [];
    worker = await startPipelineWorker({
      config: t.config, database: t.database, queue: t.services.queue, log: logInto(lines), knowledge: t.services.knowledge,
      onBatchFinished: async (_tx, finished) => {
        if (finished.some(({ work }) => work.submission.id === unlucky) && failures++ < 2) throw new Error('the notifications could not be enqueued');
      },
    });
    for (const id of ids) assert.equal((await settled(t, key, form.id, id)).processing_status, 'completed', id);
    assert.equal(failures, 3, 'the unlucky one was recorded in its batch, alone, then in its own job');
    const retried = lines.filter((l) => l.message.includes('retrying it on its own'));
    assert.deepEqual(retried.map((l) => l.object.submissionId), [unlucky]);
  });

  it('has no more submissions waiting on a provider at once than the worker concurrency', async () => {
    const provider = await startFakeProvider(() => ({ hang: true }));
    const app = await startTestApp({ INTAKE_TRANSLATE_URL: provider.url, INTAKE_TRANSLATE_TIMEOUT_MS: '2000', INTAKE_PIPELINE_MAX_ATTEMPTS: '1', INTAKE_WORKER_CONCURRENCY: '2' });
    let running: RunningWorker | null = null;
    try {
      const key = await app.createKey();
      const form = await createForm(app, key, { localisation_enabled: true });
      const german = { ...MESSAGE, message: 'Guten Tag, könnten Sie mir bitte die Preisliste für Ihre Gartenmöbel schicken? Vielen Dank.' };
      const ids = await Promise.all(Array.from({ length: 6 }, () => submit(app, form.endpoint, german)));
      assert.ok((await queuedJobs(app)).some((job) => job.task === PROCESS_SUBMISSIONS), 'the six share a job');
      running = await startPipelineWorker({ config: app.config, database: app.database, queue: app.services.queue, log: logInto([]), knowledge: app.services.knowledge });
      await waitFor('two translation requests', () => (provider.requests.length >= 2 ? true : undefined));
      await sleep(300);
      assert.equal(provider.requests.length, 2, 'the others wait for a slot');
      for (const id of ids) assert.equal((await settled(app, key, form.id, id, 30_000)).processing_status, 'failed');
      assert.equal(provider.requests.length, 6);
    } finally {
      await running?.stop();
      await app.close();
      await provider.close();
    }
  });
});
