// The final statuses of a batch are recorded together (on PostgreSQL in one statement): each row
// gets exactly its own columns, whatever the others in the batch set, and a submission that is
// already final, or twice in the batch, is finished once. What finishing them starts (deliveries)
// is created for the batch at once too. No worker runs: the test drives the stores.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fromJson, toBool, toIsoOrNull } from '../src/db/values.ts';
import { readSubmissions } from '../src/submissions/store.ts';
import { pipelineStore, type Outcome, type PipelineStore, type StepResult, type Work } from '../src/pipeline/store.ts';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';
import { submit } from './pipeline-helpers.ts';

const MESSAGE = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello, could you send me the price list? Thanks a lot.' };

describe('final statuses of a batch', () => {
  let t: TestApp;
  let store: PipelineStore;
  let key: string;
  let endpoint: string;
  before(async () => {
    t = await startTestApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    store = pipelineStore(t.database.db, t.database.engine);
    key = await t.createKey();
    endpoint = (await createForm(t, key)).endpoint;
  });
  after(async () => {
    await t?.close();
  });

  /** Submitted and loaded as the worker would load it, with these steps already done. */
  async function pending(steps: string[] = [], to = endpoint): Promise<Work> {
    const work = await store.load(await submit(t, to, MESSAGE));
    assert.ok(work);
    work.submission.steps = steps;
    return work;
  }

  async function stored(id: string) {
    const row = await t.database.db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return {
      processing_status: row.processing_status,
      processing_reason: row.processing_reason,
      processed_at: toIsoOrNull(row.processed_at),
      pipeline_steps: fromJson(row.pipeline_steps),
      spam_flag: toBool(row.spam_flag),
      spam_confidence: row.spam_confidence,
      spam_reason: row.spam_reason,
      original_language: row.original_language,
      translated_data: fromJson(row.translated_data),
      reply_status: row.reply_status,
      reply_subject: row.reply_subject,
      reply_content: row.reply_content,
      reply_reason: row.reply_reason,
      reply_passages: fromJson(row.reply_passages),
    };
  }

  const UNTOUCHED = {
    spam_flag: false, spam_confidence: null, spam_reason: null, original_language: null, translated_data: null,
    reply_status: 'pending', reply_subject: null, reply_content: null, reply_reason: null, reply_passages: null,
  };

  it('writes each submission its own columns, and leaves one already final as it is', async () => {
    const spam = await pending(['spam']);
    const ham = await pending(['spam', 'language', 'translation', 'reply']);
    // A translation saved by an earlier run of its job, which the final status replaces with null,
    // and a language saved then that the final status does not mention (kept).
    const resumed = await pending(['language', 'translation']);
    await store.saveSteps(resumed, { original_language: 'de', translated_data: { message: 'Hallo' } });
    const final = await pending(['spam']);
    await store.transaction(async (tx) => {
      await store.finish(tx, [{ work: final, result: { spam_flag: false, spam_reason: 'first run' }, outcome: { status: 'skipped', reason: 'ai_credits_exhausted' } }], '2026-01-01T00:00:00.000Z');
    });
    const finalBefore = await stored(final.submission.id);

    const results: Array<[Work, StepResult, Outcome]> = [
      [spam, { spam_flag: true, spam_confidence: 0.1 + 0.2, spam_reason: 'links; "quotes" and \\backslashes\\', reply_reason: 'smart_replies_disabled' }, { status: 'completed', reason: 'spam_detected' }],
      [ham, {
        spam_flag: false, spam_confidence: 0.05, spam_reason: null, original_language: 'fr',
        translated_data: { message: 'Bonjour — une question ? {"not": "json"} 😀', 'odd key "x"': '' },
        reply_status: 'completed', reply_subject: 'Re: Contact', reply_content: 'Yes.\nLone surrogate: a\ud800b', reply_reason: null, reply_passages: [3, 1, 2],
      }, { status: 'completed', reason: null }],
      [resumed, { translated_data: null, reply_status: 'failed', reply_reason: 'knowledge_base_missing' }, { status: 'failed', reason: 'translation_failed: gone' }],
      [final, { spam_flag: false, spam_reason: 'second run' }, { status: 'completed', reason: null }],
    ];
    // Out of seq order, as they arrive; then the same submission again (its job ran twice): finished once, by the first.
    const batch = results.reverse().map(([work, result, outcome]) => ({ work, result, outcome }));
    batch.push({ work: ham, result: { ...results[2]![1], original_language: 'it' }, outcome: results[2]![2] });
    const processedAt = '2026-02-03T04:05:06.789Z';
    const finished = await store.transaction((tx) => store.finish(tx, batch, processedAt));

    assert.deepEqual(finished.map((item) => item.work.submission.id).sort(), [spam, ham, resumed].map((w) => w.submission.id).sort());
    assert.equal(finished.find((item) => item.work === ham)?.result.original_language, 'fr', 'the first of a submission twice in the batch is the one recorded');
    assert.deepEqual(await stored(spam.submission.id), {
      ...UNTOUCHED, processing_status: 'completed', processing_reason: 'spam_detected', processed_at: processedAt, pipeline_steps: ['spam'],
      // The flag is flagSpam's to set, after the batch.
      spam_confidence: 0.30000000000000004, spam_reason: 'links; "quotes" and \\backslashes\\', reply_reason: 'smart_replies_disabled',
    });
    assert.deepEqual(await stored(ham.submission.id), {
      ...UNTOUCHED, processing_status: 'completed', processing_reason: null, processed_at: processedAt, pipeline_steps: ['spam', 'language', 'translation', 'reply'],
      spam_confidence: 0.05, original_language: 'fr',
      translated_data: { message: 'Bonjour — une question ? {"not": "json"} 😀', 'odd key "x"': '' },
      // Both engines store a lone surrogate as U+FFFD.
      reply_status: 'completed', reply_subject: 'Re: Contact', reply_content: 'Yes.\nLone surrogate: a\ufffdb', reply_passages: [3, 1, 2],
    });
    assert.deepEqual(await stored(resumed.submission.id), {
      ...UNTOUCHED, processing_status: 'failed', processing_reason: 'translation_failed: gone', processed_at: processedAt, pipeline_steps: ['language', 'translation'],
      original_language: 'de', reply_status: 'failed', reply_reason: 'knowledge_base_missing',
    });
    assert.deepEqual(await stored(final.submission.id), finalBefore);
    assert.equal(finalBefore.processing_status, 'skipped');
    assert.equal(finalBefore.spam_reason, 'first run');
  });

  it('finishes an empty batch and a batch of one', async () => {
    assert.deepEqual(await store.transaction((tx) => store.finish(tx, [], '2026-01-01T00:00:00.000Z')), []);
    const work = await pending();
    const item = { work, result: {}, outcome: { status: 'failed' as const, reason: 'processing_error' } };
    assert.deepEqual(await store.transaction((tx) => store.finish(tx, [item], '2026-01-01T00:00:00.000Z')), [item]);
    assert.deepEqual(await stored(work.submission.id), {
      ...UNTOUCHED, processing_status: 'failed', processing_reason: 'processing_error', processed_at: '2026-01-01T00:00:00.000Z', pipeline_steps: [],
    });
  });

  it('creates the deliveries of a batch: each submission to the destinations that want it and that it has not reached', async () => {
    const destination = async (formId: string, deliverSpam: boolean) => {
      const created = await t.request({
        method: 'POST', url: `/api/forms/${formId}/destinations`, headers: bearer(key),
        payload: { type: 'webhook', url: 'http://127.0.0.1:9/hook', deliver_spam: deliverSpam },
      });
      assert.equal(created.statusCode, 201, created.body);
      return (created.json() as { id: string }).id;
    };
    const two = await createForm(t, key);
    const [hamOnly, spamToo] = [await destination(two.id, false), await destination(two.id, true)];
    const one = await createForm(t, key);
    const only = await destination(one.id, false);
    const [ham, spam, reached, elsewhere, none] = [
      await pending([], two.endpoint), await pending([], two.endpoint), await pending([], two.endpoint), await pending([], one.endpoint), await pending(),
    ];
    const outcome: Outcome = { status: 'completed', reason: null };
    await store.transaction(async (tx) => {
      await store.flagSpam(tx, [spam]);
      // Delivered to one destination before a spam correction resumed it.
      const [earlier] = [...(await readSubmissions(tx, [reached.submission.id])).values()];
      await t.services.delivery.store.insert(tx, [{
        id: 'earlier', destinationId: hamOnly, submissionId: reached.submission.id, createdAt: new Date().toISOString(),
        payload: { event: { id: 'evt_earlier', type: 'submission.created', created_at: new Date().toISOString(), data: { form: { id: two.id, name: 'Contact', slug: two.slug, visibility: 'public', version: 1 }, submission: earlier! } }, fields: [], link: '' },
      }]);
      await t.services.delivery.onBatchFinished(tx, [ham, spam, reached, elsewhere, none].map((work) => ({ work, outcome })));
    });
    const rows = await t.database.db.selectFrom('deliveries').select(['submission_id', 'destination_id', 'payload']).where('id', '!=', 'earlier').execute();
    const made = rows.map((row) => `${row.submission_id} → ${row.destination_id}`).sort();
    assert.deepEqual(made, [
      `${ham.submission.id} → ${hamOnly}`, `${ham.submission.id} → ${spamToo}`, `${spam.submission.id} → ${spamToo}`,
      `${reached.submission.id} → ${spamToo}`, `${elsewhere.submission.id} → ${only}`,
    ].sort());
    for (const row of rows) {
      const { data } = (fromJson(row.payload) as { event: { data: { submission: { id: string; spam_flag: boolean } } } }).event;
      assert.equal(data.submission.id, row.submission_id, 'each delivery carries its own submission');
      assert.equal(data.submission.spam_flag, row.submission_id === spam.submission.id);
    }
  });
});
