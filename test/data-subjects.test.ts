// A data subject's access and erasure on the engine under test: one person found in three forms of
// an owner (and not in another owner's), exported with what Intake derived, erased with nothing
// left in any column of any table of the live schema, counters right, the audit log counting only.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';
import { settled, startPipelineApp, submit, type PipelineApp } from './pipeline-helpers.ts';
import { columnsHolding, textColumns } from './schema-scan.ts';
import { runCli } from './cli.ts';
import { callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { DashboardClient } from './dashboard-helpers.ts';

const NOTES_SCHEMA = { fields: [{ name: 'name', type: 'string' }, { name: 'notes', type: 'string' }] };
const ADDRESS = 'jane.doe@example.com';
const MARKER = 'Zyxwvutsrq'; // a value only the subject's submissions hold

function cliEnv(t: TestApp): Record<string, string> {
  return {
    INTAKE_DATA_DIR: t.config.dataDir,
    ...(t.config.databaseUrl && { DATABASE_URL: t.config.databaseUrl, INTAKE_PG_JOBS_SCHEMA: t.config.pipeline.jobsSchema }),
  };
}

/** What the delivery worker keeps of a delivery to a receiver that echoed the body: written as it writes them. */
async function deliveredAbout(t: TestApp, formId: string, submissionId: string): Promise<void> {
  const db = t.database.db;
  const now = new Date().toISOString();
  const submission = await db.selectFrom('submissions').select('data').where('id', '=', submissionId).executeTakeFirstOrThrow();
  const data = typeof submission.data === 'string' ? submission.data : JSON.stringify(submission.data);
  const destination = randomUUID();
  await db.insertInto('destinations').values({
    id: destination, form_id: formId, type: 'webhook', name: 'echo', target: JSON.stringify({ url: 'https://hooks.example.com/x' }), secret: null,
    deliver_spam: false, enabled: true, source: 'api', failure_count: 0, last_delivered_at: null, last_error: null, disabled_at: null, disabled_reason: null,
    created_at: now, updated_at: now,
  }).execute();
  const delivery = randomUUID();
  await db.insertInto('deliveries').values({
    id: delivery, destination_id: destination, submission_id: submissionId, event_id: randomUUID(), payload: JSON.stringify({ event: { data: JSON.parse(data) } }),
    status: 'succeeded', attempts: 1, next_attempt_at: null, last_status_code: 200, last_error: null, created_at: now, completed_at: now,
  }).execute();
  await db.insertInto('delivery_attempts').values({ delivery_id: delivery, attempt: 1, attempted_at: now, status_code: 200, duration_ms: 5, error: null, response_body: `echo: ${data}` }).execute();
  await db.insertInto('submission_analyses').values({ submission_id: submissionId, kind: 'translation:de', result: JSON.stringify({ translated_data: JSON.parse(data) }), created_at: now }).execute();
  await db.insertInto('credit_charges').values({ submission_id: submissionId, step: 'translation', account_id: (await db.selectFrom('forms').select('account_id').where('id', '=', formId).executeTakeFirstOrThrow()).account_id, period: 'lifetime', cost: 1, created_at: now }).execute();
}

describe('data subjects: search, export and erase', () => {
  let t: PipelineApp;
  let key: string;
  let otherKey: string;
  const forms: Array<Awaited<ReturnType<typeof createForm>>> = [];
  const subjectIds: string[] = [];
  const othersIds: string[] = [];
  let strangersId = '';

  const post = (path: string, payload: unknown, k = key) => t.request({ method: 'POST', url: `/api/data-subjects/${path}`, headers: bearer(k), payload: payload as object });

  before(async () => {
    t = await startPipelineApp();
    key = await t.createKey();
    otherKey = await t.createKey();
    forms.push(await createForm(t, key), await createForm(t, key, { fields_schema: NOTES_SCHEMA }), await createForm(t, key));
    subjectIds.push(await submit(t, forms[0]!.endpoint, { name: `Jane ${MARKER}`, email: ADDRESS, message: 'Привет from Jane' }));
    subjectIds.push(await submit(t, forms[1]!.endpoint, { name: `J. ${MARKER}`, notes: ' Jane.Doe@EXAMPLE.com ' }));
    subjectIds.push(await submit(t, forms[2]!.endpoint, { name: MARKER, email: 'JANE.DOE@example.com' }));
    othersIds.push(await submit(t, forms[0]!.endpoint, { name: 'Bob', email: 'bob@example.com', message: `not ${ADDRESS.replace('@', ' at ')}` }));
    othersIds.push(await submit(t, forms[1]!.endpoint, { name: 'Carol', notes: 'jane.doe@example.org' }));
    const strangersForm = await createForm(t, otherKey);
    strangersId = await submit(t, strangersForm.endpoint, { name: 'Jane elsewhere', email: ADDRESS });
    for (const [i, id] of subjectIds.entries()) await settled(t, key, forms[i]!.id, id);
    for (const id of subjectIds) await deliveredAbout(t, forms[subjectIds.indexOf(id)]!.id, id);
  });
  after(() => t.close());

  it('finds the person in three forms by any spelling of the address, through the index', async () => {
    const indexed = await t.database.db.selectFrom('subject_emails').select('submission_id').where('submission_id', 'in', subjectIds).execute();
    assert.equal(indexed.length, 3, 'the pipeline indexed every address');
    const response = await post('search', { email: '  JANE.doe@Example.COM ' });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.email, ADDRESS);
    assert.equal(body.complete, true);
    assert.deepEqual(new Set(body.submissions.map((s: { id: string }) => s.id)), new Set(subjectIds));
    assert.deepEqual(new Set(body.submissions.map((s: { form_id: string }) => s.form_id)), new Set(forms.map((f) => f.id)));
    const none = await post('search', { email: 'nobody@example.com' });
    assert.deepEqual(none.json().submissions, []);
  });

  it('exports one JSON document with the submissions and what was derived from them', async () => {
    const body = (await post('export', { email: ADDRESS })).json();
    assert.equal(body.submissions.length, 3);
    assert.equal(body.submissions.find((s: { submission: { id: string } }) => s.submission.id === subjectIds[0]).submission.data.message, 'Привет from Jane');
    assert.equal(body.derived.deliveries.length, 3);
    assert.match(body.derived.deliveries[0].attempts[0].response_body, new RegExp(MARKER));
    assert.equal(body.derived.analyses.length, 3);
  });

  it('answers the CLI the same way', async () => {
    const owner = (await t.services.accounts.authenticate(key))!.account.email;
    // Three CLI processes side by side: none of them changes anything.
    const [found, bad, noOwner] = await Promise.all([
      runCli(['subjects', 'search', '--owner', owner, '--email', ADDRESS], cliEnv(t)),
      runCli(['subjects', 'erase', '--owner', owner, '--email', 'not-an-address'], cliEnv(t)),
      runCli(['subjects', 'search', '--email', ADDRESS], cliEnv(t)),
    ]);
    assert.equal(found.code, 0, found.stderr);
    assert.equal(JSON.parse(found.stdout).submissions.length, 3);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /email/);
    assert.equal(noOwner.code, 2);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    for (const payload of [{ email: 'not-an-address' }, {}, { email: 42 }, { email: `${'a'.repeat(400)}@example.com` }, { email: ADDRESS, extra: 1 }, { email: 'a@localhost' }, { email: 'a@@example.com' }]) {
      const response = await post('erase', payload);
      assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
    }
    assert.equal((await post('search', { email: ADDRESS })).json().submissions.length, 3);
    assert.equal((await t.request({ method: 'POST', url: '/api/data-subjects/search', payload: { email: ADDRESS } })).statusCode, 401);
  });

  it('erases all of it: nothing of it left in any column of any table, counters right, the audit log counting only', async () => {
    const columns = await textColumns(t.database);
    for (const table of ['submissions', 'deliveries', 'delivery_attempts', 'submission_analyses', 'subject_emails', 'audit_log']) {
      assert.ok(columns.some((c) => c.table === table), `the scan reads ${table}`);
    }
    const before = await columnsHolding(t.database, MARKER);
    for (const where of ['submissions.data', 'deliveries.payload', 'delivery_attempts.response_body', 'submission_analyses.result']) {
      assert.ok(before.some((c) => `${c.table}.${c.column}` === where), `before erasure the scan finds the data in ${where}`);
    }
    const response = await post('erase', { email: ADDRESS });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.erased, 3);
    assert.deepEqual(body.forms.map((f: { erased: number }) => f.erased), [1, 1, 1]);

    assert.deepEqual(await columnsHolding(t.database, MARKER), [], 'no column holds the submitted values');
    assert.deepEqual(await columnsHolding(t.database, ADDRESS), [
      { table: 'submissions', column: 'data', rows: 1 }, // the other owner's submission
    ]);
    for (const id of subjectIds) assert.deepEqual(await columnsHolding(t.database, id), [], `nothing refers to ${id}`);
    const left = await t.database.db.selectFrom('submissions').select('id').where('id', 'in', [...othersIds, strangersId]).execute();
    assert.equal(left.length, 3, "others' submissions stay");

    for (const [i, form] of forms.entries()) {
      const got = (await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) })).json();
      assert.equal(got.submission_count, i === 2 ? 0 : 1);
      const listed = (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=all`, headers: bearer(key) })).json();
      assert.equal(listed.meta.total_count, listed.data.length);
    }
    const audit = (await t.request({ method: 'GET', url: '/api/audit?page_size=100', headers: bearer(key) })).json();
    const entry = audit.data.find((e: { operation: string; outcome: string }) => e.operation === 'POST /api/data-subjects/erase' && e.outcome === 'succeeded');
    assert.equal(entry.detail, 'erased 3 submissions in 3 forms');
    assert.equal(entry.target_id, null);
    assert.deepEqual((await post('erase', { email: ADDRESS })).json(), { erased: 0, forms: [], complete: true }, 'erasing again finds nothing');
  });
});

describe('data subjects before the pipeline reached them', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('are found by reading what the index does not cover yet, and erased', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const id = await submit(t, form.endpoint, { name: 'Unprocessed', email: 'late@example.com' });
    assert.equal((await t.database.db.selectFrom('subject_emails').selectAll().execute()).length, 0, 'no worker ran: nothing indexed');
    const found = (await t.request({ method: 'POST', url: '/api/data-subjects/search', headers: bearer(key), payload: { email: 'LATE@example.com' } })).json();
    assert.deepEqual(found.submissions.map((s: { id: string }) => s.id), [id]);
    const erased = (await t.request({ method: 'POST', url: '/api/data-subjects/erase', headers: bearer(key), payload: { email: 'late@example.com' } })).json();
    assert.equal(erased.erased, 1);
    assert.deepEqual(await columnsHolding(t.database, 'late@example.com'), []);
  });
});

describe('data subjects through MCP and the dashboard', () => {
  let t: McpApp;
  before(async () => {
    t = await startMcpApp();
  });
  after(() => t.close());

  it('search_data_subject and erase_data_subject (a destructive tool), and Account → Data requests', async () => {
    const owner = new DashboardClient(t);
    await owner.setUp('owner@example.com');
    const key = await t.createKey('owner@example.com');
    const form = await createForm(t, key);
    await submit(t, form.endpoint, { name: 'A', email: 'a@example.com' });
    await submit(t, form.endpoint, { name: 'B', email: 'b@example.com' });
    const client = await t.connect(key);
    const tools = (await client.listTools()).tools;
    assert.equal(tools.find((x) => x.name === 'erase_data_subject')?.annotations?.destructiveHint, true);
    assert.equal(tools.find((x) => x.name === 'search_data_subject')?.annotations?.readOnlyHint, true);
    assert.equal((await callOk(client, 'search_data_subject', { email: 'A@example.com' })).submissions.length, 1);
    assert.equal((await callOk(client, 'erase_data_subject', { email: 'a@example.com' })).erased, 1);
    const audit = (await t.request({ method: 'GET', url: '/api/audit', headers: bearer(key) })).json();
    assert.equal(audit.data.find((e: { operation: string }) => e.operation === 'erase_data_subject').detail, 'erased 1 submission in 1 form');

    const account = await owner.get('/account');
    assert.match(account.body, /href="\/account\/data-requests"/);
    await owner.get('/account/data-requests');
    const found = await owner.follow(await owner.post('/account/data-requests', { email: 'b@example.com' }));
    assert.equal(found.statusCode, 200);
    assert.doesNotMatch(String(owner.last?.headers.location ?? ''), /example/, 'the address never travels in a URL');
    assert.match(found.body, /1 submission hold b@example.com/);
    const file = await owner.post('/account/data-requests/export', { email: 'b@example.com' });
    assert.match(file.headers['content-disposition'] as string, /^attachment; filename="data-request-/);
    assert.equal(JSON.parse(file.body).submissions.length, 1);
    const bad = await owner.follow(await owner.post('/account/data-requests', { email: 'nope' }));
    assert.equal(bad.statusCode, 422);
    const done = await owner.follow(await owner.post('/account/data-requests/erase', { email: 'b@example.com' }));
    assert.match(done.body, /erased 1 submission in 1 form/);
    assert.deepEqual(await columnsHolding(t.database, 'b@example.com'), []);
  });
});

describe('migration 0014', () => {
  it('indexes the addresses of what the fingerprint recorder went past, and leaves the rest to it', async () => {
    const { openDatabase } = await import('../src/db/database.ts');
    const { migrateUpTo, migrateToLatest } = await import('../src/db/migrate.ts');
    const { createTestStore } = await import('./helpers.ts');
    const store = await createTestStore();
    const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
    try {
      await migrateUpTo(database, '0013_security');
      const now = new Date().toISOString();
      const db = database.db as never as import('kysely').Kysely<any>;
      await db.insertInto('accounts').values({ id: 'a1', email: 'owner@example.com', plan: 'pro', created_at: now, submissions_total: 0 }).execute();
      await db.insertInto('forms').values({ id: 'f1', account_id: 'a1', name: 'Contact', slug: 'contact', visibility: 'public', current_version_id: 'v1', created_at: now, updated_at: now }).execute();
      await db.insertInto('form_versions').values({ id: 'v1', form_id: 'f1', version: 1, segment: 'seg1', slug: 'contact', fields_schema: JSON.stringify({ fields: [] }), created_at: now }).execute();
      for (const [i, data] of [{ email: 'Old@Example.com' }, { note: 'old@example.com', other: 'x@example.org' }, { email: 'new@example.com' }].entries()) {
        await db.insertInto('submissions').values({ id: `s${i}`, form_id: 'f1', version_id: 'v1', data: JSON.stringify(data), metadata: '{}', created_at: now }).execute();
      }
      const second = await db.selectFrom('submissions').select('seq').where('id', '=', 's1').executeTakeFirstOrThrow();
      await db.insertInto('fingerprint_marks').values({ form_id: 'f1', through_seq: second.seq }).execute();

      assert.equal((await migrateToLatest(database))[0], '0014_owner_data');
      const rows = await database.db.selectFrom('subject_emails').select(['submission_id']).orderBy('submission_id').execute();
      assert.deepEqual(rows.map((r) => r.submission_id), ['s0', 's1', 's1'], 'the two rows the recorder went past, each address once; s2 is left to it');
      const form = await database.db.selectFrom('forms').select(['retention_days', 'spam_retention_days']).where('id', '=', 'f1').executeTakeFirstOrThrow();
      assert.deepEqual({ ...form }, { retention_days: null, spam_retention_days: null }, 'an existing form keeps everything');
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
