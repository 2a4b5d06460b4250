// AI credits: an intelligent spam check costs 1, a translation 1. Free owners spend a one-time
// allowance and are then skipped; pro owners are metered past their monthly allowance; two
// workers never spend the same credit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from './cli.ts';
import { CONTACT_SCHEMA, createTestStore, RELAXED_ENV, type TestStore } from './helpers.ts';
import { startServer, startWorker, stop } from './processes.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, submitAndSettle, type PipelineApp } from './pipeline-helpers.ts';

const QUESTION = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello, could you tell me when my order of two garden chairs will arrive?' };
const CASINO = { name: 'Win Big', email: 'promo@mailinator.com', message: 'CASINO BONUS!!! Click here http://bit.ly/casino-win http://bit.ly/casino2 guaranteed winnings, cheap SEO' };

async function account(t: PipelineApp, key: string) {
  const response = await t.request({ method: 'GET', url: '/api/account', headers: bearer(key) });
  return { body: response.json(), headers: response.headers };
}

describe('AI credits', () => {
  let t: PipelineApp;
  let model: FakeProvider;
  before(async () => {
    // An OpenAI-compatible chat server: its verdict depends on what the submission says.
    model = await startFakeProvider((request) => {
      const text = JSON.stringify(request.body);
      const verdict = /casino/i.test(text)
        ? { spam: true, confidence: 0.97, reason: 'Casino advertising unrelated to the form' }
        : { spam: false, confidence: 0.04, reason: 'A genuine customer question' };
      return { body: { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(verdict) }, finish_reason: 'stop' }] } };
    });
    t = await startPipelineApp({
      INTAKE_FREE_AI_CREDITS: '3',
      INTAKE_PRO_MONTHLY_AI_CREDITS: '2',
      INTAKE_AI_BASE_URL: `${model.url}/v1`,
      INTAKE_AI_MODEL: 'test-model',
    });
  });
  after(async () => {
    await t?.close();
    await model.close();
  });

  it('asks the configured model for intelligent checks and charges one credit each', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { spam_protection_enabled: true, spam_protection_strategy: 'intelligent', intent: 'Order questions' });
    const before = model.requests.length;
    const ham = await submitAndSettle(t, key, form, QUESTION);
    const spam = await submitAndSettle(t, key, form, CASINO);
    assert.equal(model.requests.length - before, 2);
    const sent = model.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal((sent.body as { model: string }).model, 'test-model');
    assert.match(JSON.stringify(sent.body), /Order questions/, 'the form intent is given to the model');
    assert.equal(ham.spam_flag, false);
    assert.equal(spam.spam_flag, true);
    assert.equal(spam.spam_confidence, 0.97);
    assert.match(spam.spam_reason ?? '', /Casino advertising/);
    assert.equal(typeof ham.spam_confidence, 'number');
    // The model's verdict is saved before the final status; the form's spam count still moves, once.
    const spamList = (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions?filter=spam`, headers: bearer(key) })).json();
    assert.equal(spamList.meta.total_count, 1);
    const { body, headers } = await account(t, key);
    assert.equal(body.credits.used, 2);
    assert.equal(headers['x-service-credits-remaining'], '1');
    assert.equal(headers['x-service-metered'], 'false');
  });

  it('skips a free owner without credits with ai_credits_exhausted, while standard checks still catch spam', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { spam_protection_enabled: true, spam_protection_strategy: 'intelligent' });
    for (let i = 0; i < 3; i++) assert.equal((await submitAndSettle(t, key, form, { ...QUESTION, name: `Ada ${i}` })).processing_status, 'completed');
    const skipped = await submitAndSettle(t, key, form, { ...QUESTION, name: 'Ada 4' });
    assert.equal(skipped.processing_status, 'skipped');
    assert.equal(skipped.processing_reason, 'ai_credits_exhausted');
    assert.equal(skipped.spam_flag, false);
    assert.equal(skipped.original_language, 'en', 'free steps still run');
    const spam = await submitAndSettle(t, key, form, CASINO);
    assert.equal(spam.spam_flag, true, 'standard heuristics still run without credits');
    const { body, headers } = await account(t, key);
    assert.equal(body.credits.used, 3);
    assert.equal(body.credits.remaining, 0);
    assert.equal(headers['x-service-credits-remaining'], '0');
  });

  it('meters a pro owner past the monthly allowance instead of skipping', async () => {
    const email = `pro-${Date.now()}@example.com`;
    const key = await t.createKey(email);
    assert.ok(await t.services.accounts.setPlan(email, 'pro'));
    const form = await createForm(t, key, { spam_protection_enabled: true, spam_protection_strategy: 'intelligent' });
    for (let i = 0; i < 4; i++) assert.equal((await submitAndSettle(t, key, form, { ...QUESTION, name: `Ada ${i}` })).processing_status, 'completed');
    const { body, headers } = await account(t, key);
    assert.equal(body.plan, 'pro');
    assert.match(body.credits.period, /^\d{4}-\d{2}$/);
    assert.equal(body.credits.used, 4);
    assert.equal(body.credits.remaining, 0);
    assert.equal(body.credits.metered, true);
    assert.equal(body.credits.metered_usage, 2);
    assert.equal(headers['x-service-metered'], 'true');
  });
});

describe('AI credits under concurrency', () => {
  let store: TestStore;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    env = { ...RELAXED_ENV, ...store.env, INTAKE_FREE_AI_CREDITS: '10', INTAKE_WORKER_CONCURRENCY: '16' };
  });
  after(() => store.cleanup());

  it('never spends the same credit twice with two worker processes', async () => {
    const key = (await runCli(['keys', 'create', '--email', 'race@example.com', '--name', 'k'], env)).stdout.trim();
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // The server's embedded worker and a worker process of its own compete for the same jobs.
    const server = await startServer(env);
    const worker = startWorker(env);
    try {
      const form = (await (await fetch(`${server.base}/api/forms`, {
        method: 'POST', headers: auth,
        body: JSON.stringify({ name: 'Race', slug: 'race', visibility: 'public', fields_schema: CONTACT_SCHEMA, spam_protection_enabled: true, spam_protection_strategy: 'intelligent' }),
      })).json()) as { id: string; endpoint: string };
      const endpoint = new URL(form.endpoint).pathname;
      const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => fetch(`${server.base}${endpoint}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...QUESTION, name: `Person ${i}` }),
      })));
      assert.deepEqual(responses.map((r) => r.status), Array(40).fill(201));
      let statuses: string[] = [];
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(50)) {
        const page = await (await fetch(`${server.base}/api/forms/${form.id}/submissions?filter=all&page_size=100`, { headers: auth })).json() as {
          data: Array<{ processing_status: string; processing_reason: string | null }>;
        };
        statuses = page.data.map((s) => `${s.processing_status}${s.processing_reason ? `:${s.processing_reason}` : ''}`);
        if (!statuses.some((s) => s === 'pending' || s === 'processing')) break;
      }
      assert.equal(statuses.filter((s) => s === 'completed').length, 10, statuses.join(', '));
      assert.equal(statuses.filter((s) => s === 'skipped:ai_credits_exhausted').length, 30);
      const account = await (await fetch(`${server.base}/api/account`, { headers: auth })).json() as { credits: { used: number } };
      assert.equal(account.credits.used, 10);
    } finally {
      await stop(worker);
      await stop(server.child);
    }
  });
});
