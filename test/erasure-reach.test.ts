// Erasure reaches everything derived from a person (issue 32, faults 5, 7 and 8), on the engine
// under test: a model summary that quoted them, a translation's charge record, the SQLite file and
// its WAL, and addresses written with lookalike letters, which are someone else's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sqliteFile } from '../src/db/database.ts';
import { standInModel, startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, ENGINE } from './helpers.ts';
import { callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { settled, startPipelineApp, submit, type PipelineApp } from './pipeline-helpers.ts';
import { columnsHolding } from './schema-scan.ts';

const ERASED = 'ada.marker@example.com';
const KEPT = 'bob.kept@example.com';
const MARKER = 'Qwzxvkjhgfmarker'; // words only the erased person wrote

/** A model that quotes what it is given: the summary names the people and repeats their words. */
const quotingModel = standInModel((system, user) => (system.includes('is spam')
  ? JSON.stringify({ spam: false, confidence: 0.05, reason: 'judged by the stand-in' })
  : `People wrote: ${user.slice(user.indexOf('BEGIN DATA'))}`), 'DE');

/** Every byte of the SQLite file and its WAL, as one buffer (the WAL may be absent). */
function fileBytes(dataDir: string): Buffer {
  const file = sqliteFile(dataDir);
  return Buffer.concat([file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
}

describe('erasure reaches model summaries, charge records and the database file', () => {
  let t: McpApp;
  let model: FakeProvider;
  let key: string;
  let client: Client;
  let form: Awaited<ReturnType<typeof createForm>>;
  let erasedId = '';
  let keptId = '';
  const post = (path: string, email: string) => t.request({ method: 'POST', url: `/api/data-subjects/${path}`, headers: bearer(key), payload: { email } });

  before(async () => {
    model = await startFakeProvider(quotingModel);
    t = await startMcpApp({ INTAKE_AI_BASE_URL: `${model.url}/v1`, INTAKE_AI_MODEL: 'stand-in' }, { pipeline: true });
    key = await t.createKey('owner@example.com');
    client = await t.connect(key);
    form = await createForm(t, key);
    erasedId = await submit(t, form.endpoint, { name: 'Ada', email: ERASED, message: `My order never arrived, ${MARKER}, please help me today.` });
    await settled(t, key, form.id, erasedId);
    // The kept person's submission is the newest: the summary used to be stored on it.
    keptId = await submit(t, form.endpoint, { name: 'Bob', email: KEPT, message: 'I would like to change my delivery address please.' });
    await settled(t, key, form.id, keptId);
  });
  after(async () => {
    await t.close();
    await model.close();
  });

  it('deletes a summary that quoted the erased person, and never hands it to someone else', async () => {
    const summary = await callOk(client, 'summarize_submissions', { form_id: form.id });
    assert.equal(summary.credits_charged, 1, summary.model_summary_note);
    assert.match(summary.model_summary, new RegExp(MARKER), 'the stand-in quotes the submissions');
    const translated = await callOk(client, 'translate_submission', { form_id: form.id, submission_id: erasedId, language: 'de' });
    assert.equal(translated.credits_charged, 1);
    assert.ok((await columnsHolding(t.database, MARKER)).length > 0);

    const othersExport = (await post('export', KEPT)).json();
    assert.equal(othersExport.submissions.length, 1);
    assert.doesNotMatch(JSON.stringify(othersExport), new RegExp(`${MARKER}|${ERASED}`), "B's export holds nothing of A");
    assert.equal(othersExport.derived.summaries.length, 1, 'it says a summary read their submission');

    const erasure = await post('erase', ERASED);
    assert.equal(erasure.json().erased, 1);
    assert.deepEqual(await columnsHolding(t.database, MARKER), [], 'no column holds the erased words');
    assert.deepEqual(await columnsHolding(t.database, ERASED), [], 'no column holds the erased address');
    assert.deepEqual(await columnsHolding(t.database, erasedId), [], 'no record (a charge of a translation) names the erased submission');
    const charges = await t.database.db.selectFrom('credit_charges').select(['submission_id', 'step', 'cost']).where('step', '=', 'translation:de').execute();
    assert.equal(charges.length, 1, 'the charge of the translation is still billed');
    assert.match(charges[0]!.submission_id, /^erased:/);

    const afterwards = (await post('export', KEPT)).json();
    assert.doesNotMatch(JSON.stringify(afterwards), new RegExp(`${MARKER}|${ERASED}`));
    assert.deepEqual(afterwards.derived.summaries, [], 'the summary went with the erased submission');
    const again = await callOk(client, 'summarize_submissions', { form_id: form.id });
    assert.equal(again.analysed, 1);
    assert.doesNotMatch(JSON.stringify(again), new RegExp(MARKER), 'a summary asked again is made without them');
    const kept = await t.database.db.selectFrom('submission_summary_sources').select('submission_id').execute();
    assert.deepEqual(kept.map((r) => r.submission_id), [keptId], 'it records what it was made from');
    await callOk(client, 'delete_submission', { form_id: form.id, submission_id: keptId });
    assert.deepEqual(await t.database.db.selectFrom('submission_summaries').select('id').execute(), [], "the owner's delete takes it along too");
  });

  it('leaves none of the erased words in the SQLite file or its WAL', { skip: ENGINE !== 'sqlite' && 'SQLite only' }, async () => {
    const id = await submit(t, form.endpoint, { name: 'Cy', email: 'cy.words@example.com', message: `Please call me back about ${MARKER}Zeta, thank you so much.` });
    await settled(t, key, form.id, id);
    assert.ok(fileBytes(t.config.dataDir).includes(`${MARKER}Zeta`), 'before erasure the words are in the file or the WAL');
    assert.equal((await post('erase', 'cy.words@example.com')).json().erased, 1);
    // Writes after the checkpoint (the audit entry) start a new WAL: it holds pages as they are now.
    assert.ok(!fileBytes(t.config.dataDir).includes(`${MARKER}Zeta`), 'neither the file nor the WAL holds a trace: the deleted cells were zeroed, the old WAL emptied');
  });
});

describe('addresses written with lookalike letters are not the person', () => {
  let t: PipelineApp;
  let key: string;
  const GENUINE = 'kate.sims@example.com';
  // The Kelvin sign (U+212A) folds to k, the long s (U+017F) upper-cases to S, full-width letters NFKC-fold to ASCII.
  const LOOKALIKES = ['\u212Aate.sims@example.com', 'kate.\u017Fims@example.com', '\uFF4Bate.sims@example.com', 'KATE.\u017FIMS@EXAMPLE.COM'];
  const genuineIds: string[] = [];
  const lookalikeIds: string[] = [];
  const post = (path: string, email: string) => t.request({ method: 'POST', url: `/api/data-subjects/${path}`, headers: bearer(key), payload: { email } });
  const ids = (body: { submissions: Array<{ id?: string; submission?: { id: string } }> }) => new Set(body.submissions.map((s) => s.id ?? s.submission!.id));

  before(async () => {
    t = await startPipelineApp();
    key = await t.createKey();
    const indexed = await createForm(t, key);
    // In a text field: an email field would refuse the lookalike; any value that is exactly an address counts.
    for (const email of LOOKALIKES) lookalikeIds.push(await submit(t, indexed.endpoint, { name: 'Stranger', email: 'someone@example.org', message: email }));
    genuineIds.push(await submit(t, indexed.endpoint, { name: 'Kate', email: 'Kate.Sims@Example.COM' }));
    for (const id of [...lookalikeIds, ...genuineIds]) await settled(t, key, indexed.id, id);
  });
  after(() => t.close());

  it('leaves them out of search, export and erasure, indexed or not, and matches the ASCII address in any case', async () => {
    // Not yet indexed: written straight into a form the pipeline has not reached (no worker for it).
    const late = await createForm(t, key);
    const now = new Date().toISOString();
    const version = (await t.database.db.selectFrom('forms').select('current_version_id').where('id', '=', late.id).executeTakeFirstOrThrow()).current_version_id;
    for (const [i, email] of [...LOOKALIKES, 'KATE.sims@example.com'].entries()) {
      const id = `late-${i}`;
      await t.database.db.insertInto('submissions').values({
        id, form_id: late.id, version_id: version, data: JSON.stringify({ name: 'Late', message: email }), metadata: '{}', created_at: now,
        processing_status: 'completed', spam_flag: false, reply_status: 'pending',
      } as never).execute();
      (i < LOOKALIKES.length ? lookalikeIds : genuineIds).push(id);
    }

    const found = (await post('search', GENUINE)).json();
    assert.deepEqual(ids(found), new Set(genuineIds));
    assert.deepEqual(ids((await post('export', 'KATE.SIMS@example.com')).json()), new Set(genuineIds));
    assert.equal((await post('erase', GENUINE)).json().erased, genuineIds.length);
    const left = await t.database.db.selectFrom('submissions').select('id').where('id', 'in', [...lookalikeIds, ...genuineIds]).execute();
    assert.deepEqual(new Set(left.map((r) => r.id)), new Set(lookalikeIds), "the strangers' submissions stay");
  });

  it('refuses an account key under a lookalike of an address', async () => {
    await assert.rejects(t.services.accounts.createKey({ email: '\u212Aate.sims@example.com', name: 'x' }), /not an email address/);
  });
});

describe('migration 0028', () => {
  it('moves variants into the step, makes charges of gone submissions anonymous, drops summaries kept the old way, re-indexes lookalikes', async () => {
    const { openDatabase } = await import('../src/db/database.ts');
    const { migrateUpTo, migrateToLatest } = await import('../src/db/migrate.ts');
    const { emailHash } = await import('../src/data-subjects/subject-emails.ts');
    const { createTestStore } = await import('./helpers.ts');
    const store = await createTestStore();
    const database = openDatabase({ databaseUrl: store.databaseUrl, dataDir: store.dataDir });
    try {
      await migrateUpTo(database, '0026_oauth_hashed_ids');
      const now = new Date().toISOString();
      const db = database.db as never as import('kysely').Kysely<any>;
      await db.insertInto('accounts').values({ id: 'a1', email: 'owner@example.com', plan: 'pro', created_at: now, submissions_total: 0 }).execute();
      await db.insertInto('forms').values({ id: 'f1', account_id: 'a1', name: 'Contact', slug: 'contact', visibility: 'public', current_version_id: 'v1', created_at: now, updated_at: now }).execute();
      await db.insertInto('form_versions').values({ id: 'v1', form_id: 'f1', version: 1, segment: 'seg1', slug: 'contact', fields_schema: JSON.stringify({ fields: [] }), created_at: now }).execute();
      for (const [id, note] of [['s0', '\u212Aate@example.com'], ['s1', 'Kate@example.com']]) {
        await db.insertInto('submissions').values({ id, form_id: 'f1', version_id: 'v1', data: JSON.stringify({ note }), metadata: '{}', created_at: now }).execute();
        // What the old rule indexed: NFC turned the Kelvin sign into K.
        await db.insertInto('subject_emails').values({ email_hash: emailHash('kate@example.com'), submission_id: id, form_id: 'f1' }).execute();
      }
      for (const kind of ['summary:abc', 'translation:de']) {
        await db.insertInto('submission_analyses').values({ submission_id: 's1', kind, result: JSON.stringify({ value: 'x' }), created_at: now }).execute();
      }
      const charges = [['s1', 'translation'], ['s1:translation:de', 'translation'], ['s1:summary:abc', 'summary'], ['gone:translation:fr', 'translation'], ['gone', 'spam_check']];
      for (const [key, step] of charges) {
        await db.insertInto('credit_charges').values({ submission_id: key, step, account_id: 'a1', period: 'lifetime', cost: 1, created_at: now }).execute();
      }

      assert.ok((await migrateToLatest(database)).includes('0028_erasure_reach'));
      const indexed = await database.db.selectFrom('subject_emails').select('submission_id').execute();
      assert.deepEqual(indexed.map((r) => r.submission_id), ['s1'], 'the Kelvin-sign submission is no longer indexed as kate@example.com');
      const analyses = await database.db.selectFrom('submission_analyses').select('kind').execute();
      assert.deepEqual(analyses.map((r) => r.kind), ['translation:de']);
      const after = await database.db.selectFrom('credit_charges').select(['submission_id', 'step', 'cost']).orderBy('step').orderBy('submission_id').execute();
      assert.deepEqual(after.map((r) => [r.submission_id.replace(/^erased:.*/, 'erased:'), r.step, Number(r.cost)]), [
        ['erased:', 'spam_check', 1], ['summary:abc', 'summary', 1], ['s1', 'translation', 1], ['s1', 'translation:de', 1], ['erased:', 'translation:fr', 1],
      ]);
    } finally {
      await database.close();
      await store.cleanup();
    }
  });
});
