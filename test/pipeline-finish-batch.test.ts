// The final statuses of a batch are recorded together (on PostgreSQL in one statement): each row
// gets exactly its own columns, whatever the others in the batch set, and a submission that is
// already final, or twice in the batch, is finished once. No worker runs: the test drives the store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fromJson, toBool, toIsoOrNull } from '../src/db/values.ts';
import { pipelineStore, type Outcome, type PipelineStore, type StepResult, type Work } from '../src/pipeline/store.ts';
import { createForm, startTestApp, type TestApp } from './helpers.ts';
import { submit } from './pipeline-helpers.ts';

const MESSAGE = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello, could you send me the price list? Thanks a lot.' };

describe('final statuses of a batch', () => {
  let t: TestApp;
  let store: PipelineStore;
  let endpoint: string;
  before(async () => {
    t = await startTestApp();
    store = pipelineStore(t.database.db, t.database.engine);
    const key = await t.createKey();
    endpoint = (await createForm(t, key)).endpoint;
  });
  after(async () => {
    await t?.close();
  });

  /** Submitted and loaded as the worker would load it, with these steps already done. */
  async function pending(steps: string[] = []): Promise<Work> {
    const work = await store.load(await submit(t, endpoint, MESSAGE));
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

});
