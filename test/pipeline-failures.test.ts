// Providers fail: transient failures are retried with backoff, lasting ones fail the submission
// with a reason naming the step, and nothing is charged for what was not done.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeProvider, type FakeProvider, type Reply } from './fake-provider.ts';
import { bearer, createForm, settled, startPipelineApp, submit, submitAndSettle, type PipelineApp } from './pipeline-helpers.ts';

const GERMAN = { name: 'Grete Müller', email: 'grete@example.de', message: 'Guten Tag, könnten Sie mir bitte die Preisliste für Ihre Gartenmöbel schicken? Vielen Dank.' };
const translated = (request: { body: unknown }): Reply => {
  const body = request.body as { q: string[] };
  return { body: { translatedText: body.q.map((text) => `EN: ${text}`) } };
};

async function creditsUsed(t: PipelineApp, key: string): Promise<number> {
  return (await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) })).json().credits.used;
}

describe('pipeline failures', () => {
  let t: PipelineApp;
  let provider: FakeProvider;
  /** What the translation server does next; one entry per request, the last one repeats. */
  let script: Array<(request: { body: unknown }) => Reply> = [];
  before(async () => {
    provider = await startFakeProvider((request) => (script.length > 1 ? script.shift()! : script[0]!)(request));
    t = await startPipelineApp({ INTAKE_TRANSLATE_URL: provider.url, INTAKE_PIPELINE_MAX_ATTEMPTS: '3', INTAKE_TRANSLATE_TIMEOUT_MS: '300' });
  });
  after(async () => {
    await t?.close();
    await provider.close();
  });

  it('retries a translation server that fails twice, then completes, charging once', async () => {
    script = [() => ({ status: 503, body: { error: 'overloaded' } }), () => ({ status: 429, body: {} }), translated];
    const key = await t.createKey();
    const form = await createForm(t, key, { localisation_enabled: true });
    const before = provider.requests.length;
    const s = await submitAndSettle(t, key, form, GERMAN);
    assert.equal(s.processing_status, 'completed', s.processing_reason ?? '');
    assert.equal(s.processing_reason, null);
    assert.equal(s.translated_data?.message, `EN: ${GERMAN.message}`);
    assert.equal(provider.requests.length - before, 3);
    assert.equal(await creditsUsed(t, key), 1);
    assert.ok(t.log.some((l) => l.message.includes('retrying') && l.object.submissionId === s.id));
  });

  it('fails the submission after the last attempt, names the step, logs it and refunds the credit', async () => {
    script = [() => ({ hang: true })];
    const key = await t.createKey();
    const form = await createForm(t, key, { localisation_enabled: true, spam_protection_enabled: true });
    const id = await submit(t, form.endpoint, GERMAN);
    const s = await settled(t, key, form.id, id);
    assert.equal(s.processing_status, 'failed');
    assert.match(s.processing_reason ?? '', /^translation_failed: .*no answer within 300 ms/);
    assert.equal(s.spam_flag, false, 'the spam verdict reached before the failure is kept');
    assert.equal(s.original_language, 'de');
    assert.equal(await creditsUsed(t, key), 0);
    const logged = t.log.find((l) => l.level === 'error' && l.object.submissionId === id);
    assert.ok(logged, 'the failure is logged with the submission id');
  });

  it('does not retry a refusal that retrying cannot fix', async () => {
    script = [() => ({ status: 403, body: { error: 'Invalid API key' } })];
    const key = await t.createKey();
    const form = await createForm(t, key, { localisation_enabled: true });
    const before = provider.requests.length;
    const s = await submitAndSettle(t, key, form, GERMAN);
    assert.equal(s.processing_status, 'failed');
    assert.match(s.processing_reason ?? '', /^translation_failed: /);
    assert.equal(provider.requests.length - before, 1);
  });

  it('keeps one failing submission from holding up the others', async () => {
    script = [() => ({ hang: true })];
    const key = await t.createKey();
    const slow = await createForm(t, key, { localisation_enabled: true });
    const plain = await createForm(t, key);
    const stuck = await submit(t, slow.endpoint, GERMAN);
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(t, plain.endpoint, { ...GERMAN, name: `Person ${i}` })));
    for (const id of ids) assert.equal((await settled(t, key, plain.id, id, 5_000)).processing_status, 'completed');
    script = [translated];
    assert.ok(['completed', 'failed'].includes((await settled(t, key, slow.id, stuck)).processing_status));
  });
});

describe('pipeline without a translation provider', () => {
  let t: PipelineApp;
  before(async () => {
    t = await startPipelineApp();
  });
  after(() => t?.close());

  it('completes, leaves translated_data null and says that translation is not configured', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { localisation_enabled: true });
    const s = await submitAndSettle(t, key, form, GERMAN);
    assert.equal(s.processing_status, 'completed');
    assert.equal(s.processing_reason, 'translation_not_configured');
    assert.equal(s.translated_data, null);
    assert.equal(s.original_language, 'de');
    assert.equal(await creditsUsed(t, key), 0);
  });
});
