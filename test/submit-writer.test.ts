// The submit path's writer: a large batch commits while the event loop keeps answering, and ids
// are time-ordered UUIDs. On SQLite the batch goes to the writer thread, as every submission does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { timeOrderedUuid } from '../src/db/time-ordered-id.ts';
import { submissionStore, type NewSubmission } from '../src/submissions/store.ts';
import { batchStatementsFor } from '../src/submissions/batch-statements.ts';
import fs from 'node:fs';
import { AUTO_THREAD_BATCH, submissionWriter } from '../src/submissions/writer.ts';
import { loadConfig } from '../src/config.ts';
import { writerThreadMode } from '../src/services.ts';
import { createForm, startTestApp, type TestApp } from './helpers.ts';
import { formSubmissionCount } from '../src/db/counter-shards.ts';

describe('submission writer', () => {
  let t: TestApp;
  let formId: string;
  let accountId: string;
  before(async () => {
    t = await startTestApp();
    const key = await t.createKey('writer@example.com');
    formId = (await createForm(t, key)).id;
    accountId = (await t.database.db.selectFrom('accounts').select('id').where('email', '=', 'writer@example.com').executeTakeFirstOrThrow()).id;
  });
  after(() => t.close());

  const item = (n: number): NewSubmission => ({
    id: timeOrderedUuid(),
    formId,
    accountId,
    versionId: 'v',
    data: { name: `Sender ${n}`, email: `s${n}@example.com`, message: 'A message of an ordinary length, as a contact form would send it.' },
    metadata: { ip: '127.0.0.1', user_agent: 'test', referer: null, origin: null, utm: {} },
    idempotencyKey: null, idempotencyHash: null,
    fingerprint: `f${n}`,
    createdAt: new Date().toISOString(),
    submissionCap: null,
  });

  it('keeps answering /healthz within milliseconds while a batch of 20,000 commits', async () => {
    const write = submissionWriter(t.database, submissionStore(t.database.db, batchStatementsFor(t.database.sqliteConnection), t.database.engine), t.services.queue, 5);
    const batch = Array.from({ length: 20_000 }, (_, n) => item(n));
    let committed = false;
    const writing = write(batch).then((outcomes) => {
      committed = true;
      return outcomes;
    });
    const latencies: number[] = [];
    while (!committed) {
      const started = performance.now();
      const response = await t.request({ method: 'GET', url: '/healthz' });
      assert.equal(response.statusCode, 200);
      if (!committed) latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const outcomes = await writing;
    assert.equal(outcomes.filter((o) => o.kind === 'created').length, batch.length);
    latencies.sort((a, b) => a - b);
    const p90 = latencies[Math.floor(latencies.length * 0.9)]!;
    assert.ok(latencies.length >= 20, `only ${latencies.length} answers while the batch committed`);
    assert.ok(p90 < 20, `p90 of /healthz while committing: ${p90.toFixed(1)} ms (max ${latencies.at(-1)!.toFixed(1)} ms, ${latencies.length} answers)`);
    const form = await t.database.db.selectFrom('forms').select(formSubmissionCount('forms').as('submission_count')).where('id', '=', formId).executeTakeFirstOrThrow();
    assert.equal(Number(form.submission_count), batch.length);
    const jobs = await t.database.db.selectFrom('submissions').select((eb) => eb.fn.countAll().as('n')).where('form_id', '=', formId).executeTakeFirstOrThrow();
    assert.equal(Number(jobs.n), batch.length);
  });

  // Linux names a worker thread's task "WorkerThread": counting them tells whether the writer started one.
  const workerThreads = () => {
    const tasks = fs.readdirSync('/proc/self/task');
    return tasks.filter((task) => fs.readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === 'WorkerThread').length;
  };
  const storedCount = async () => Number((await t.database.db.selectFrom('forms').select(formSubmissionCount('forms').as('submission_count')).where('id', '=', formId).executeTakeFirstOrThrow()).submission_count);

  it('auto: stores small batches on the main connection and starts the thread for a batch of several', { skip: !fs.existsSync('/proc/self/task') }, async (context) => {
    if (t.database.engine !== 'sqlite') return context.skip('the thread is SQLite\'s');
    const write = submissionWriter(t.database, submissionStore(t.database.db, batchStatementsFor(t.database.sqliteConnection), t.database.engine), t.services.queue, 5, 'auto');
    const threadsBefore = workerThreads();
    const countBefore = await storedCount();
    for (let n = 0; n < 3; n++) {
      const outcomes = await write(Array.from({ length: AUTO_THREAD_BATCH - 1 }, (_, i) => item(100_000 + n * 10 + i)));
      assert.deepEqual(outcomes.map((o) => o.kind), Array(AUTO_THREAD_BATCH - 1).fill('created'));
    }
    assert.equal(await storedCount(), countBefore + 3 * (AUTO_THREAD_BATCH - 1));
    assert.equal(workerThreads(), threadsBefore, 'no thread for batches smaller than AUTO_THREAD_BATCH');
    const outcomes = await write(Array.from({ length: AUTO_THREAD_BATCH }, (_, i) => item(200_000 + i)));
    assert.deepEqual(outcomes.map((o) => o.kind), Array(AUTO_THREAD_BATCH).fill('created'));
    assert.equal(workerThreads(), threadsBefore + 1, 'the batch of several went to a thread');
    await write([item(300_000)]);
    assert.equal(await storedCount(), countBefore + 3 * (AUTO_THREAD_BATCH - 1) + AUTO_THREAD_BATCH + 1);
  });

  it('false: never starts the thread', { skip: !fs.existsSync('/proc/self/task') }, async () => {
    const write = submissionWriter(t.database, submissionStore(t.database.db, batchStatementsFor(t.database.sqliteConnection), t.database.engine), t.services.queue, 5, 'false');
    const threadsBefore = workerThreads();
    const countBefore = await storedCount();
    await write(Array.from({ length: 50 }, (_, i) => item(400_000 + i)));
    assert.equal(workerThreads(), threadsBefore);
    assert.equal(await storedCount(), countBefore + 50);
  });

  it('auto means no thread beside embedded workers, a thread under load without them; true and false are kept', () => {
    const mode = (env: Record<string, string>) => writerThreadMode(loadConfig(env));
    assert.equal(mode({}), 'false');
    assert.equal(mode({ INTAKE_EMBEDDED_WORKER: 'false' }), 'auto');
    assert.equal(mode({ INTAKE_SQLITE_WRITER_THREAD: 'true' }), 'true');
    assert.equal(mode({ INTAKE_EMBEDDED_WORKER: 'false', INTAKE_SQLITE_WRITER_THREAD: 'false' }), 'false');
    assert.throws(() => mode({ INTAKE_SQLITE_WRITER_THREAD: 'sometimes' }), /INTAKE_SQLITE_WRITER_THREAD/);
  });

  it('makes version 7 UUIDs that sort by the time they were made', () => {
    const earlier = timeOrderedUuid(Date.parse('2026-01-01T00:00:00Z'));
    const later = timeOrderedUuid(Date.parse('2026-01-01T00:00:00.001Z'));
    assert.match(earlier, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(earlier < later);
    assert.equal(earlier.slice(0, 13), '019b76da-a800');
    const many = new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(0)));
    assert.equal(many.size, 1000, 'the random bits differ within one millisecond');
  });
});
