// PostgreSQL's one-statement batch (migration 0044, src/submissions/postgres-batch.ts): the same
// outcomes, counters and jobs as the transaction path (insert-batch.ts), each fallback checked.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { batchJson, insertBatchInOneStatement } from '../src/submissions/postgres-batch.ts';
import { COUNTER_SHARDS } from '../src/db/migrations/0044_one_statement_batch.ts';
import { submissionWriter } from '../src/submissions/writer.ts';
import type { NewSubmission, SubmissionStore } from '../src/submissions/store.ts';
import { PROCESS_SUBMISSION, PROCESS_SUBMISSIONS, PROCESSING_JOB_SIZE, processingJobsFor } from '../src/pipeline/tasks.ts';
import { accountSubmissionsTotal, formSubmissionCount } from '../src/db/counter-shards.ts';
import { createForm, ENGINE, startTestApp, type TestApp } from './helpers.ts';

describe('one statement per batch (PostgreSQL)', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: TestApp;
  let formId: string;
  let accountId: string;
  before(async () => {
    t = await startTestApp();
    const key = await t.createKey('batch@example.com');
    formId = (await createForm(t, key)).id;
    accountId = (await t.database.db.selectFrom('accounts').select('id').where('email', '=', 'batch@example.com').executeTakeFirstOrThrow()).id;
  });
  after(() => t.close());

  const store = (items: NewSubmission[]) => insertBatchInOneStatement(t.database.db, items, t.services.queue.graphile!);
  const item = (overrides: Partial<NewSubmission> = {}): NewSubmission => ({
    id: randomUUID(),
    formId,
    accountId,
    versionId: 'v',
    data: { name: 'Ada' },
    metadata: { ip: '127.0.0.1', user_agent: null, referer: null, origin: null, utm: {} },
    idempotencyKey: null, idempotencyHash: null,
    fingerprint: 'f',
    createdAt: new Date().toISOString(),
    submissionCap: null,
    ...overrides,
  });
  const counts = async () => {
    const form = await t.database.db.selectFrom('forms').select(formSubmissionCount('forms').as('n')).where('id', '=', formId).executeTakeFirstOrThrow();
    const account = await t.database.db.selectFrom('accounts').select(accountSubmissionsTotal('accounts').as('n')).where('id', '=', accountId).executeTakeFirstOrThrow();
    return { form: Number(form.n), account: Number(account.n) };
  };
  /** The jobs queued for these submissions, as graphile-worker holds them. */
  const jobsOf = async (ids: string[]) => {
    const { rows } = await sql<{ task_identifier: string; payload: Record<string, unknown>; max_attempts: number }>`
      select t.identifier as task_identifier, j.payload, j.max_attempts from ${sql.id(t.database.jobsSchema, '_private_jobs')} j
      join ${sql.id(t.database.jobsSchema, '_private_tasks')} t on t.id = j.task_id order by j.id`.execute(t.database.db);
    return rows.filter((job) => {
      const named = (job.payload.submissionIds as string[] | undefined) ?? [job.payload.submissionId as string];
      return named.some((id) => ids.includes(id));
    });
  };

  it('stores a batch, counts it once and queues its jobs in the same statement', async () => {
    const before = await counts();
    const batch = Array.from({ length: 33 }, () => item());
    const outcomes = await store(batch);
    assert.deepEqual(outcomes.map((o) => o.kind), batch.map(() => 'created'));
    assert.deepEqual(await counts(), { form: before.form + 33, account: before.account + 33 });
    const { rows } = await sql<{ id: string }>`select id from submissions where id = any(${batch.map((b) => b.id)}::text[]) order by seq`.execute(t.database.db);
    assert.deepEqual(rows.map((r) => r.id), batch.map((b) => b.id), 'stored in batch order');
    // add_jobs inserts in the order its join's plan gives (generic plans, migration 0045): the two
    // jobs of one batch are due at the same moment, so their order is no promise.
    const jobs = (await jobsOf(batch.map((b) => b.id))).sort((a, b) => b.task_identifier.localeCompare(a.task_identifier));
    assert.deepEqual(jobs.map((j) => j.task_identifier), [PROCESS_SUBMISSIONS, PROCESS_SUBMISSION]);
    assert.deepEqual(jobs[0]!.payload, { submissionIds: batch.slice(0, 32).map((b) => b.id) });
    assert.deepEqual(jobs[1]!.payload, { submissionId: batch[32]!.id });
    assert.deepEqual(jobs.map((j) => j.max_attempts), [t.config.pipeline.maxAttempts, t.config.pipeline.maxAttempts]);
  });

  it('carries each traced submission\'s traceparent into its job, as processingJobsFor writes it (0046)', async () => {
    const traceparent = (n: number) => `00-${n.toString(16).padStart(32, '0')}-${n.toString(16).padStart(16, '0')}-01`;
    // 33 traced but one (a batch job of 32 with one null, and a job of one), then a job of one untraced.
    const traced = Array.from({ length: 33 }, (_, i) => item(i === 5 ? {} : { traceparent: traceparent(i + 1) }));
    const before = Date.now();
    assert.deepEqual((await store(traced)).map((o) => o.kind), traced.map(() => 'created'));
    const jobs = (await jobsOf(traced.map((b) => b.id))).sort((a, b) => b.task_identifier.localeCompare(a.task_identifier));
    const expected = processingJobsFor(traced);
    assert.deepEqual(jobs.map((j) => j.task_identifier), expected.map((j) => j.task));
    for (const [k, job] of jobs.entries()) {
      const { dueAt, ...rest } = job.payload as { dueAt: number };
      const { dueAt: _expectedDue, ...expectedRest } = expected[k]!.payload as { dueAt: number };
      assert.deepEqual(rest, expectedRest);
      assert.ok(dueAt >= before && dueAt <= Date.now(), `dueAt ${dueAt} is the batch's time`);
    }
    assert.equal((jobs[0]!.payload as { traceparents: Array<string | null> }).traceparents[5], null, 'an untraced submission of a traced job has null');
    const untraced = item();
    await store([untraced]);
    assert.deepEqual((await jobsOf([untraced.id])).map((j) => j.payload), [{ submissionId: untraced.id }], 'no trace fields without a traceparent');
  });

  it('fails only the submissions of a form gone meanwhile, and queues no job for them', async () => {
    const before = await counts();
    const kept = item();
    const orphan = item({ formId: randomUUID() });
    const alsoKept = item();
    const outcomes = await store([kept, orphan, alsoKept]);
    assert.deepEqual(outcomes.map((o) => o.kind), ['created', 'form_gone', 'created']);
    assert.deepEqual(await counts(), { form: before.form + 2, account: before.account + 2 });
    assert.deepEqual((await jobsOf([kept.id, orphan.id, alsoKept.id])).map((j) => j.payload), [{ submissionIds: [kept.id, alsoKept.id] }]);
  });

  it('admits as many as the free cap leaves room for, in order, and counts exactly those', async () => {
    const before = await counts();
    const cap = before.account + 2;
    const batch = [1, 2, 3, 4].map(() => item({ submissionCap: cap }));
    const outcomes = await store(batch);
    assert.deepEqual(outcomes.map((o) => o.kind), ['created', 'created', 'plan_limit', 'plan_limit']);
    assert.deepEqual(await counts(), { form: before.form + 2, account: cap });
    const full = await store([item({ submissionCap: cap })]);
    assert.deepEqual(full.map((o) => o.kind), ['plan_limit'], 'a full plan refuses a whole batch');
    assert.deepEqual(await counts(), { form: before.form + 2, account: cap });
    assert.equal((await jobsOf(batch.slice(2).map((b) => b.id))).length, 0);
  });

  it('reads the plan in the statement: a pro owner has no cap', async () => {
    await t.database.db.updateTable('accounts').set({ plan: 'pro' }).where('id', '=', accountId).execute();
    try {
      const outcomes = await store([item({ submissionCap: 0 }), item({ submissionCap: 0 })]);
      assert.deepEqual(outcomes.map((o) => o.kind), ['created', 'created']);
    } finally {
      await t.database.db.updateTable('accounts').set({ plan: 'free' }).where('id', '=', accountId).execute();
    }
  });

  it('answers a replayed key with the stored submission, a reused one with key_reused, and counts neither', async () => {
    const first = item({ idempotencyKey: 'order-1', idempotencyHash: 'request-a', data: { name: 'First' } });
    assert.deepEqual((await store([first])).map((o) => o.kind), ['created']);
    const before = await counts();
    const outcomes = await store([
      item({ idempotencyKey: 'order-1', idempotencyHash: 'request-a' }),
      item({ idempotencyKey: 'order-1', idempotencyHash: 'request-b' }),
      // The same new key twice in one batch: the second replays the first, stored a moment before.
      item({ idempotencyKey: 'order-2', idempotencyHash: 'request-c' }),
      item({ idempotencyKey: 'order-2', idempotencyHash: 'request-c' }),
      item({ idempotencyKey: 'order-2', idempotencyHash: 'request-d' }),
    ]);
    assert.deepEqual(outcomes.map((o) => o.kind), ['duplicate', 'key_reused', 'created', 'duplicate', 'key_reused']);
    assert.deepEqual(await counts(), { form: before.form + 1, account: before.account + 1 });
    const replay = outcomes[0]!;
    assert.ok(replay.kind === 'duplicate');
    const stored = await t.services.submissions.get(accountId, formId, first.id);
    assert.deepEqual(replay.existing, stored, 'the stored submission, as the API shows it');
    assert.equal(replay.existing.created_at, first.createdAt);
  });

  it('frees a key older than 24 hours: the same key starts a new submission', async () => {
    const old = item({ idempotencyKey: 'order-old', idempotencyHash: 'request-a', createdAt: new Date(Date.now() - 25 * 3_600_000).toISOString() });
    await store([old]);
    const renewed = item({ idempotencyKey: 'order-old', idempotencyHash: 'request-a' });
    assert.deepEqual((await store([renewed])).map((o) => o.kind), ['created']);
    const oldRow = await t.database.db.selectFrom('submissions').select(['idempotency_key', 'idempotency_hash']).where('id', '=', old.id).executeTakeFirstOrThrow();
    assert.deepEqual(oldRow, { idempotency_key: null, idempotency_hash: null });
  });

  it('is what the submit writer uses on PostgreSQL, traced or not, except for batches with files', async () => {
    const calls: number[] = [];
    const transactionPath = { insertBatch: async (items: NewSubmission[]) => { calls.push(items.length); return items.map(() => ({ kind: 'created' as const })); } };
    const write = submissionWriter(t.database, transactionPath as unknown as SubmissionStore, t.services.queue, 5);
    const plain = item();
    assert.deepEqual((await write([plain])).map((o) => o.kind), ['created']);
    assert.deepEqual((await write([item({ traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` })])).map((o) => o.kind), ['created']);
    assert.deepEqual(calls, [], 'the transaction path was not taken');
    assert.ok(await t.services.submissions.get(accountId, formId, plain.id));
    const upload = { field: 'cv', id: randomUUID(), name: 'cv.pdf', type: 'application/pdf', size: 1, sha256: 'x', storageKey: 'k' };
    await write([item({ files: [upload as never] })]);
    assert.deepEqual(calls, [1], 'a batch with files takes the transaction path');
  });
});

describe('batches of one form on two connections (PostgreSQL)', { skip: ENGINE !== 'postgres' && 'PostgreSQL only' }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('commit side by side: a batch holds no row that another connection\'s batch of the same form needs', async () => {
    const key = await t.createKey('side@example.com');
    const formId = (await createForm(t, key)).id;
    const accountId = (await t.database.db.selectFrom('accounts').select('id').where('email', '=', 'side@example.com').executeTakeFirstOrThrow()).id;
    const items = (n: number): NewSubmission[] => Array.from({ length: n }, () => ({
      id: randomUUID(), formId, accountId, versionId: 'v', data: { name: 'Ada' },
      metadata: { ip: '127.0.0.1', user_agent: null, referer: null, origin: null, utm: {} },
      idempotencyKey: null, idempotencyHash: null, fingerprint: 'f', createdAt: new Date().toISOString(), submissionCap: null,
    }));
    const batch = (n: number) => batchJson(items(n));
    // graphile-worker adds a task's name to its table with the first job of that task, and a second
    // transaction waits on that new name until the first commits: both names exist from then on.
    await insertBatchInOneStatement(t.database.db, items(PROCESSING_JOB_SIZE + 1), t.services.queue.graphile!);
    const call = `select out_kind from intake_insert_submissions($1::jsonb, ${PROCESSING_JOB_SIZE}, 5, '${PROCESS_SUBMISSION}', '${PROCESS_SUBMISSIONS}')`;
    const pool = t.database.pgPool!;
    const pidOf = async (client: { query: (q: string) => Promise<{ rows: Array<{ pid: number }> }> }) => (await client.query('select pg_backend_pid() as pid')).rows[0]!.pid;
    const first = await pool.connect();
    const held = [];
    try {
      // Another connection whose batches add to other shard rows than the first's (COUNTER_SHARDS).
      const firstShard = (await pidOf(first)) % COUNTER_SHARDS;
      let second = await pool.connect();
      while ((await pidOf(second)) % COUNTER_SHARDS === firstShard) {
        held.push(second);
        second = await pool.connect();
      }
      held.push(second);
      await first.query('begin');
      await first.query(call, [batch(3)]);
      // The first batch is stored but not committed; the second must not wait for it.
      await second.query(`set lock_timeout = '3s'`);
      const { rows } = await second.query(call, [batch(2)]);
      assert.deepEqual(rows.map((r) => r.out_kind), ['created', 'created']);
      await first.query('commit');
    } finally {
      first.release();
      for (const client of held) client.release();
    }
    const counted = await t.database.db.selectFrom('forms').select(formSubmissionCount('forms').as('n')).where('id', '=', formId).executeTakeFirstOrThrow();
    assert.equal(Number(counted.n), PROCESSING_JOB_SIZE + 1 + 5);
    const page = await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions`, headers: { authorization: `Bearer ${key}` } });
    assert.equal(page.json().meta.total_count, PROCESSING_JOB_SIZE + 1 + 5);
  });
});
