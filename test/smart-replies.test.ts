// Smart replies through the real app and worker: drafts grounded in the knowledge base, no reply
// where it has no answer, credits, spam and disabled forms, and the submitter's language.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ungroundedSentences } from '../src/replies/grounding.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { FAQ } from './fixtures.ts';
import { bearer, createForm, startPipelineApp, submitAndSettle, type PipelineApp } from './pipeline-helpers.ts';
import { CANADA_ANSWER, createKnowledgeBase, REPLY_SCHEMA, SIGNATURE, type Replied } from './reply-helpers.ts';

async function creditsUsed(t: PipelineApp, key: string): Promise<number> {
  return (await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) })).json().credits.used;
}

describe('smart replies (offline)', () => {
  let t: PipelineApp;
  let key: string;
  let kb: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  before(async () => {
    t = await startPipelineApp({ INTAKE_SMART_REPLY_CREDITS: '3' });
    key = await t.createKey();
    kb = await createKnowledgeBase(t, key);
    form = await createForm(t, key, { name: 'Shop contact', fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb });
  });
  after(() => t.close());

  it('drafts a reply from the passage that answers, every sentence grounded, for the configured credits', async () => {
    const before = await creditsUsed(t, key);
    const s = await submitAndSettle(t, key, form, { name: 'Ada', email: 'ada@example.com', message: 'Hi! Do you ship to Canada, and how long does it take?' }) as unknown as Replied;
    assert.equal(s.processing_status, 'completed');
    assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
    assert.equal(s.reply_reason, null);
    assert.equal(s.reply_subject, 'Re: Shop contact');
    assert.equal(s.replied_at, null);
    const body = s.reply_content ?? '';
    assert.ok(body.startsWith('Hello Ada,'), body);
    assert.ok(body.includes('Yes. Orders to Canada arrive within 5 to 8 working days.\nCustoms fees are paid on delivery.'), body);
    assert.ok(!body.includes('password'), 'only the passage that answers');
    assert.ok(body.endsWith(`Best regards,\n${SIGNATURE}`));
    assert.deepEqual(ungroundedSentences(body, `${FAQ}\n${SIGNATURE}`, ['Hello Ada,', 'Thank you for your message. Here is what we can tell you:', 'Best regards,']), []);
    assert.equal(await creditsUsed(t, key) - before, 3);
  });

  it('makes no reply when the knowledge base has no answer, and gives the credits back', async () => {
    const before = await creditsUsed(t, key);
    const s = await submitAndSettle(t, key, form, { name: 'Bob', email: 'bob@example.com', message: 'What is the airspeed velocity of an unladen swallow?' }) as unknown as Replied;
    assert.equal(s.processing_status, 'completed');
    assert.equal(s.reply_status, 'failed');
    assert.match(s.reply_reason ?? '', /^no_answer_in_knowledge_base: /);
    assert.equal(s.reply_content, null);
    assert.equal(await creditsUsed(t, key), before);
  });

  it('stays pending with the reason when smart replies are off or the submission is spam', async () => {
    const off = await createForm(t, key, { fields_schema: REPLY_SCHEMA });
    const s = await submitAndSettle(t, key, off, { email: 'a@example.com', message: 'Do you ship to Canada?' }) as unknown as Replied;
    assert.equal(s.reply_status, 'pending');
    assert.equal(s.reply_reason, 'smart_replies_disabled');

    const spam = await submitAndSettle(t, key, form, { email: 'a@example.com', message: 'Do you ship to Canada?', website: 'http://spam.example' }) as unknown as Replied & { spam_flag: boolean };
    assert.equal(spam.spam_flag, true);
    assert.equal(spam.reply_status, 'pending');
    assert.equal(spam.reply_reason, 'spam');
    const offSpam = await submitAndSettle(t, key, off, { email: 'a@example.com', message: 'Do you ship to Canada?', website: 'x' }) as unknown as Replied;
    assert.equal(offSpam.reply_reason, 'smart_replies_disabled');
  });

  it('answers from the knowledge base as it is now', async () => {
    const kb2 = await createKnowledgeBase(t, key, 'Q: Where is your shop?\nA: Our shop is at 1 Main Street, Springfield.');
    const changing = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb2 });
    const first = await submitAndSettle(t, key, changing, { message: 'Where is your shop?' }) as unknown as Replied;
    assert.match(first.reply_content ?? '', /1 Main Street/);
    await t.request({ method: 'PUT', url: `/api/knowledge_bases/${kb2}`, headers: bearer(key), payload: { content: 'Q: Where is your shop?\nA: We moved to 9 Harbour Road, Shelbyville.' } });
    const second = await submitAndSettle(t, key, changing, { message: 'Where is your shop?' }) as unknown as Replied;
    assert.match(second.reply_content ?? '', /9 Harbour Road/);
    assert.doesNotMatch(second.reply_content ?? '', /Main Street/);
  });
});

describe('smart replies without credits', () => {
  it('skips the reply of a free owner without credits', async () => {
    const t = await startPipelineApp({ INTAKE_FREE_AI_CREDITS: '1' });
    try {
      const key = await t.createKey();
      const kb = await createKnowledgeBase(t, key);
      const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb });
      const s = await submitAndSettle(t, key, form, { message: 'Do you ship to Canada?' }) as unknown as Replied;
      assert.equal(s.processing_status, 'skipped');
      assert.equal(s.processing_reason, 'ai_credits_exhausted');
      assert.equal(s.reply_status, 'pending');
      assert.equal(s.reply_reason, 'ai_credits_exhausted');
      assert.equal(await creditsUsed(t, key), 0);
      const regenerate = await t.request({ method: 'POST', url: `/api/forms/${form.id}/submissions/${(s as unknown as { id: string }).id}/reply/regenerate`, headers: bearer(key) });
      assert.equal(regenerate.statusCode, 422);
      assert.match(regenerate.json().error.message, /ai_credits_exhausted/);
    } finally {
      await t.close();
    }
  });
});

describe('smart replies in the submitter’s language', () => {
  const GERMAN = 'Hallo, liefern Sie auch nach Kanada? Wie lange dauert die Lieferung dorthin ungefähr?';
  let translator: FakeProvider;
  before(async () => {
    // A stand-in LibreTranslate: German in, English out for the question; anything out to German is marked.
    translator = await startFakeProvider((request) => {
      const body = request.body as { q: string[]; target: string };
      const texts = body.q.map((text) => (body.target === 'en' ? 'Hello, do you also ship to Canada? I would like to order there.' : `[de] ${text}`));
      return { body: { translatedText: texts } };
    });
  });
  after(() => translator.close());

  it('translates the question for retrieval and the reply into the submission’s language', async () => {
    const t = await startPipelineApp({ INTAKE_TRANSLATE_URL: translator.url });
    try {
      const key = await t.createKey();
      const kb = await createKnowledgeBase(t, key);
      const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, localisation_enabled: true, smart_reply_enabled: true, knowledge_base_id: kb });
      const s = await submitAndSettle(t, key, form, { name: 'Jürgen', message: GERMAN }) as unknown as Replied & { original_language: string };
      assert.equal(s.original_language, 'de');
      assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
      assert.ok(s.reply_content?.startsWith('[de] Hello Jürgen,'), s.reply_content ?? '');
      assert.match(s.reply_content ?? '', /Canada arrive within 5 to 8 working days/);
      assert.equal(s.reply_reason, null);
    } finally {
      await t.close();
    }
  });

  it('a reply that keeps failing fails the reply, not the submission, and gives its credits back', async () => {
    const down = await startFakeProvider(() => ({ status: 503, body: { error: 'maintenance' } }));
    const t = await startPipelineApp({ INTAKE_TRANSLATE_URL: down.url, INTAKE_PIPELINE_MAX_ATTEMPTS: '2', INTAKE_PIPELINE_RETRY_SCHEDULE: '20ms' });
    try {
      const key = await t.createKey();
      // The German question is in the knowledge base: only the reply's translation needs the provider.
      const kb = await createKnowledgeBase(t, key, `${FAQ}\n\nQ: ${GERMAN}\nA: ${CANADA_ANSWER}`);
      const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb });
      const s = await submitAndSettle(t, key, form, { name: 'Jürgen', message: GERMAN }) as unknown as Replied & { processing_status: string; original_language: string };
      assert.equal(s.processing_status, 'completed');
      assert.equal(s.original_language, 'de');
      assert.equal(s.reply_status, 'failed');
      assert.match(s.reply_reason ?? '', /^smart_reply_failed: /);
      assert.ok(down.requests.length >= 2, 'the reply was tried again before it failed');
      const account = await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) });
      assert.equal(account.json().credits.used, 0, 'the reply credits are given back');
    } finally {
      await t.close();
      await down.close();
    }
  });

  it('without a translator, replies in the knowledge base’s language and says so', async () => {
    const t = await startPipelineApp();
    try {
      const key = await t.createKey();
      const kb = await createKnowledgeBase(t, key, `${FAQ}\n\nQ: Liefern Sie nach Kanada?\nA: Yes. Orders to Canada arrive within 5 to 8 working days.`);
      const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb });
      const s = await submitAndSettle(t, key, form, { message: 'Liefern Sie nach Kanada? Ich wohne in Toronto und möchte bestellen.' }) as unknown as Replied;
      assert.equal(s.reply_status, 'completed', s.reply_reason ?? '');
      assert.match(s.reply_reason ?? '', /^reply_not_translated: .*\(en\).*no translation provider/);
    } finally {
      await t.close();
    }
  });
});
