// Every accepted submission goes through the pipeline: these run the real app and a real worker
// on the test database (SQLite, or PostgreSQL with DATABASE_URL) and read the results through the API.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, settled, startPipelineApp, submit, submitAndSettle, type PipelineApp } from './pipeline-helpers.ts';

const WITH_HONEYPOT = {
  fields: [
    { name: 'name', type: 'string', required: true },
    { name: 'email', type: 'email', required: true },
    { name: 'message', type: 'string' },
    { name: 'website', type: 'string', rules: [{ op: 'honeypot' }] },
  ],
};

const ENGLISH = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello, could you send me the price list for your garden furniture? Thanks a lot.' };
const GERMAN = { name: 'Grete Müller', email: 'grete@example.de', message: 'Guten Tag, könnten Sie mir bitte die Preisliste für Ihre Gartenmöbel schicken? Vielen Dank.' };
const SPAMMY = {
  name: 'Best SEO',
  email: 'promo@mailinator.com',
  message: 'CLICK HERE!!! Guaranteed first page Google ranking, cheap SEO services, casino bonus http://bit.ly/x1 http://bit.ly/x2 http://45.12.1.9/win',
};

describe('processing pipeline', () => {
  let t: PipelineApp;
  let translator: FakeProvider;
  before(async () => {
    // A LibreTranslate stand-in: "translates" by tagging each text with the target language.
    translator = await startFakeProvider((request) => {
      const body = request.body as { q: string[]; target: string };
      return { body: { translatedText: body.q.map((text) => `[${body.target}] ${text}`) } };
    });
    t = await startPipelineApp({ INTAKE_TRANSLATE_URL: translator.url });
  });
  after(async () => {
    await t?.close();
    await translator.close();
  });

  it('completes a plain submission with its language detected and no spam verdict', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const s = await submitAndSettle(t, key, form, ENGLISH);
    assert.equal(s.processing_status, 'completed');
    assert.equal(s.processing_reason, null);
    assert.equal(s.spam_flag, false);
    assert.equal(s.original_language, 'en');
    assert.equal(s.translated_data, null);
    assert.ok(s.processed_at);
  });

  it('flags a filled honeypot as spam even with spam protection off, and stops there', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { fields_schema: WITH_HONEYPOT, localisation_enabled: true });
    const s = await submitAndSettle(t, key, form, { ...GERMAN, website: 'http://spam.example' });
    assert.equal(s.processing_status, 'completed');
    assert.equal(s.processing_reason, 'spam_detected');
    assert.equal(s.spam_flag, true);
    assert.match(s.spam_reason ?? '', /honeypot/i);
    assert.equal(s.translated_data, null, 'spam is not translated');
    assert.equal(s.original_language, null, 'spam stops the pipeline before language detection');
  });

  it('flags spam with the standard heuristics, names the signals, and files it under filter=spam', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { spam_protection_enabled: true });
    const spam = await submitAndSettle(t, key, form, SPAMMY);
    const ham = await submitAndSettle(t, key, form, ENGLISH);
    assert.equal(spam.spam_flag, true);
    assert.equal(spam.processing_status, 'completed');
    assert.equal(spam.processing_reason, 'spam_detected');
    assert.match(spam.spam_reason ?? '', /link|shortener|disposable/i);
    assert.equal(ham.spam_flag, false);
    const list = async (filter: string) =>
      (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=${filter}`, headers: bearer(key) })).json();
    const spamList = await list('spam');
    assert.deepEqual(spamList.data.map((s: { id: string }) => s.id), [spam.id]);
    assert.equal(spamList.meta.total_count, 1);
    const inbox = await list('inbox');
    assert.deepEqual(inbox.data.map((s: { id: string }) => s.id), [ham.id]);
  });

  it('flags the same content sent again by the same sender', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { spam_protection_enabled: true });
    const repeated = { ...ENGLISH, message: 'Do you ship to Canada? Please let me know the cost.' };
    const first = await submitAndSettle(t, key, form, repeated);
    const ids = [await submit(t, form.endpoint, repeated), await submit(t, form.endpoint, repeated), await submit(t, form.endpoint, repeated)];
    const later = await Promise.all(ids.map((id) => settled(t, key, form.id, id)));
    assert.equal(first.spam_flag, false);
    assert.ok(later.some((s) => s.spam_flag), 'the third identical copy from one sender is spam');
    assert.match(later.at(-1)?.spam_reason ?? '', /repeat|identical|same/i);
  });

  it('translates text fields into the owner\'s language, and only the text fields', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { localisation_enabled: true });
    const before = translator.requests.length;
    const s = await submitAndSettle(t, key, form, { ...GERMAN, age: 41 });
    assert.equal(s.processing_status, 'completed');
    assert.equal(s.original_language, 'de');
    assert.deepEqual(s.translated_data, { name: `[en] ${GERMAN.name}`, message: `[en] ${GERMAN.message}` });
    assert.equal(translator.requests.length, before + 1);
    const account = (await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) })).json();
    assert.equal(account.credits.used, 1, 'a translation costs one credit');
  });

  it('does not translate (or charge for) text already in the owner\'s language, and follows a change of language', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { localisation_enabled: true });
    const english = await submitAndSettle(t, key, form, ENGLISH);
    assert.equal(english.translated_data, null);
    assert.equal(english.processing_reason, null);
    const patched = await t.request({ method: 'PATCH', url: '/api/account', headers: bearer(key), payload: { language: 'de' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().language, 'de');
    const german = await submitAndSettle(t, key, form, GERMAN);
    assert.equal(german.translated_data, null, 'German text for a German-speaking owner');
    const english2 = await submitAndSettle(t, key, form, ENGLISH);
    assert.equal(english2.translated_data?.message, `[de] ${ENGLISH.message}`);
    const account = (await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) })).json();
    assert.equal(account.credits.used, 1);
    const bad = await t.request({ method: 'PATCH', url: '/api/account', headers: bearer(key), payload: { language: 'German' } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /language/);
  });

  it('lets the owner correct a verdict, records it, and moves the spam count', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { spam_protection_enabled: true });
    const spam = await submitAndSettle(t, key, form, SPAMMY);
    assert.equal(spam.spam_flag, true);
    const url = `/api/forms/${form.id}/submissions/${spam.id}`;
    const corrected = await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { spam_flag: false } });
    assert.equal(corrected.statusCode, 200, corrected.body);
    const body = corrected.json();
    assert.equal(body.spam_flag, false);
    assert.ok(body.spam_corrected_at);
    assert.match(body.spam_reason, /^Marked as not spam by the owner \(automatic verdict: /);
    const spamList = (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=spam`, headers: bearer(key) })).json();
    assert.equal(spamList.meta.total_count, 0);
    // Marked as not spam, it resumes the steps spam skipped; a verdict can be changed again once they are done.
    await settled(t, key, form.id, spam.id);
    const again = await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { spam_flag: true } });
    assert.equal(again.json().spam_flag, true);
    const invalid = await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { spam_flag: 'yes' } });
    assert.equal(invalid.statusCode, 422);
    const other = await t.createKey();
    const foreign = await t.request({ method: 'PATCH', url, headers: bearer(other), payload: { spam_flag: false } });
    assert.equal(foreign.statusCode, 404);
  });

  it('keeps the form\'s intent', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { intent: 'Customers ask about garden furniture orders.' });
    const got = (await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(key) })).json();
    assert.equal(got.intent, 'Customers ask about garden furniture orders.');
    const tooLong = await t.request({ method: 'PUT', url: `/api/forms/${form.id}`, headers: bearer(key), payload: { intent: 'x'.repeat(1001) } });
    assert.equal(tooLong.statusCode, 422);
    assert.ok(tooLong.json().errors.intent);
  });
});
