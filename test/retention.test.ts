// Retention on the engine under test, with a test clock: only what is older than its form's
// retention goes (spam sooner), with what is kept about it; counters stay right; the purge is
// audited with counts; the run is claimed once per period across processes; bad settings refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';
import { retentionService } from '../src/retention/service.ts';
import { retentionStore } from '../src/retention/store.ts';
import { claimDueRun, startRetentionWorker } from '../src/retention/worker.ts';
import { runCli } from './cli.ts';
import { columnsHolding } from './schema-scan.ts';
import { waitFor } from './pipeline-helpers.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

describe('retention', () => {
  let t: TestApp;
  let key: string;

  const submitAged = async (form: { endpoint: string }, name: string, days: number, spam = false) => {
    const r = await t.request({ method: 'POST', url: pathOf(form.endpoint), payload: { name, email: `${name.toLowerCase()}@example.com` } });
    const id = r.json().id as string;
    await t.database.db.updateTable('submissions').set({ created_at: daysAgo(days), ...(spam && { spam_flag: true }) }).where('id', '=', id).execute();
    return id;
  };
  const retention = () => retentionService({ store: retentionStore(t.database.db, t.database.engine), audit: t.services.audit, clock: () => NOW });

  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
  });
  after(() => t.close());

  it('has settings: retention_days null and spam_retention_days 30 for a new form; bad values refused, nothing changed', async () => {
    const form = await createForm(t, key);
    assert.equal(form.retention_days, null);
    assert.equal(form.spam_retention_days, 30);
    for (const bad of [0, 3651, 1.5, '30', -1, 1e300]) {
      const r = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { retention_days: bad } });
      assert.equal(r.statusCode, 422, `${bad}: ${r.body}`);
      assert.ok(r.json().errors.retention_days);
    }
    const ok = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { retention_days: 3650, spam_retention_days: null } });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().retention_days, 3650);
    assert.equal(ok.json().spam_retention_days, null);
  });

  it('deletes only what is older than its retention, spam sooner, with what is kept about it; counters right; dry run first', async () => {
    const kept = await createForm(t, key, { spam_retention_days: null });
    const form = await createForm(t, key, { retention_days: 90, spam_retention_days: 7 });
    const ids = {
      oldHam: await submitAged(form, 'Oldham', 100),
      oldSpam: await submitAged(form, 'Oldspam', 100, true),
      weekSpam: await submitAged(form, 'Weekspam', 8, true),
      newSpam: await submitAged(form, 'Newspam', 6, true),
      midHam: await submitAged(form, 'Midham', 60),
      newHam: await submitAged(form, 'Newham', 0),
      edge: await submitAged(form, 'Edge', 89.99),
    };
    const untouched = await submitAged(kept, 'Forever', 5000, true);
    await t.database.db.updateTable('forms').set({ spam_count: 3 }).where('id', '=', form.id).execute();
    await t.database.db.updateTable('forms').set({ spam_count: 1 }).where('id', '=', kept.id).execute();

    const dry = (await retention().dryRun()).find((r) => r.form_id === form.id);
    assert.deepEqual(dry && { spam: dry.spam, expired: dry.expired }, { spam: 2, expired: 1 });
    const cli = await runCli(['purge', '--dry-run'], { INTAKE_DATA_DIR: t.config.dataDir, ...(t.config.databaseUrl && { DATABASE_URL: t.config.databaseUrl, INTAKE_PG_JOBS_SCHEMA: t.config.pipeline.jobsSchema }) });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stderr, /^Would delete \d+ submissions? past retention/);
    assert.equal((await t.database.db.selectFrom('submissions').select('id').where('form_id', '=', form.id).execute()).length, 7, 'a dry run deletes nothing');

    const done = (await retention().purge()).find((r) => r.form_id === form.id);
    assert.deepEqual(done && { spam: done.spam, expired: done.expired }, { spam: 2, expired: 1 });
    const left = new Set((await t.database.db.selectFrom('submissions').select('id').where('form_id', 'in', [form.id, kept.id]).execute()).map((r) => r.id));
    assert.deepEqual(left, new Set([ids.newSpam, ids.midHam, ids.newHam, ids.edge, untouched]));
    for (const name of ['oldham', 'oldspam', 'weekspam']) assert.deepEqual(await columnsHolding(t.database, `${name}@example.com`), [], `nothing of ${name} is kept`);

    const got = (await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) })).json();
    assert.equal(got.submission_count, 4);
    const spam = (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=spam`, headers: bearer(key) })).json();
    assert.equal(spam.meta.total_count, 1);
    assert.equal(spam.data.length, 1);
    const all = (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=all`, headers: bearer(key) })).json();
    assert.equal(all.data.length, all.meta.total_count);

    const audit = (await t.request({ method: 'GET', url: '/api/audit?page_size=100', headers: bearer(key) })).json();
    const entry = audit.data.find((e: { operation: string; target_id: string }) => e.operation === 'retention purge' && e.target_id === form.id);
    assert.equal(entry.surface, 'system');
    assert.equal(entry.detail, 'purged 3 submissions (2 spam past its retention)');
    assert.deepEqual((await retention().purge()).filter((r) => r.form_id === form.id), [], 'a second run finds nothing');
  });

  it('is claimed once per period across processes, and the job on the queue runs the purge', async () => {
    const { db } = t.database;
    const claims = await Promise.all([claimDueRun(db, t.services.queue, NOW, 3_600_000), claimDueRun(db, t.services.queue, NOW, 3_600_000)]);
    assert.deepEqual(claims.sort(), [false, true], 'two processes at once: one run');
    assert.equal(await claimDueRun(db, t.services.queue, new Date(NOW.getTime() + 3_599_000), 3_600_000), false, 'not again within the period');
    assert.equal(await claimDueRun(db, t.services.queue, new Date(NOW.getTime() + 3_600_000), 3_600_000), true, 'again once it passed');

    const form = await createForm(t, key, { retention_days: 1 });
    const id = await submitAged(form, 'Stale', 2);
    const worker = await startRetentionWorker({
      db, queue: t.services.queue, retention: retention(), intervalMs: 3_600_000, clock: () => new Date(NOW.getTime() + 7_200_000), log: { info() {}, error() {} },
    });
    try {
      await waitFor('the purge job', async () => ((await db.selectFrom('submissions').select('id').where('id', '=', id).executeTakeFirst()) ? undefined : true), 20_000);
    } finally {
      await worker.stop();
    }
  });
});
