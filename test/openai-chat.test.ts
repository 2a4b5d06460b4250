import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openAiChatModel } from '../src/ai/openai-chat.ts';
import { ProviderError } from '../src/pipeline/provider-error.ts';
import { startFakeProvider, unusedUrl, type FakeProvider, type Reply } from './fake-provider.ts';

const API_KEY = 'sk-test-0123456789abcdef';

function completion(content: unknown): Reply {
  return {
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'llama3.2',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    },
  };
}

/** Runs one completion and returns the ProviderError it must throw. */
async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => assert.fail('expected the call to fail'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
  assert.equal(error.provider, 'model');
  assert.ok(!error.message.includes(API_KEY), `the API key leaked into "${error.message}"`);
  return error;
}

describe('OpenAI-compatible chat model', () => {
  let reply: Reply = completion('ok');
  let server: FakeProvider;
  const model = (overrides: { apiKey?: string | null; timeoutMs?: number } = {}) =>
    openAiChatModel({ baseUrl: `${server.url}/v1`, apiKey: API_KEY, model: 'llama3.2', timeoutMs: 5000, ...overrides });

  before(async () => {
    server = await startFakeProvider(() => reply);
  });
  after(() => server.close());

  it('posts the chat-completions request and returns the assistant message', async () => {
    reply = completion('{"spam": false}');
    const messages = [{ role: 'system' as const, content: 'Classify.' }, { role: 'user' as const, content: 'Hello' }];
    const answer = await model().complete(messages, { json: true, maxTokens: 50, temperature: 0.3 });
    assert.equal(answer, '{"spam": false}');
    const request = server.requests.at(-1);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.deepEqual(request.body, {
      model: 'llama3.2', messages, temperature: 0.3, max_tokens: 50, response_format: { type: 'json_object' },
    });
  });

  it('sends no Authorization without a key, and no response_format or max_tokens unless asked', async () => {
    reply = completion('Hi there');
    assert.equal(await model({ apiKey: null }).complete([{ role: 'user', content: 'Hi' }]), 'Hi there');
    const request = server.requests.at(-1);
    assert.equal(request?.headers.authorization, undefined);
    assert.deepEqual(request?.body, { model: 'llama3.2', messages: [{ role: 'user', content: 'Hi' }], temperature: 0 });
  });

  it('treats refused credentials as permanent, without repeating the key the server echoed', async () => {
    for (const status of [401, 403]) {
      reply = { status, body: { error: { message: `Incorrect API key provided: ${API_KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } } };
      const error = await providerError(model().complete([{ role: 'user', content: 'Hi' }]));
      assert.equal(error.transient, false);
      assert.match(error.message, new RegExp(`HTTP ${status}: Incorrect API key provided: \\[redacted\\]`));
    }
  });

  it('leaves no part of an echoed key in a long error message that is cut short', async () => {
    reply = { status: 401, body: { error: { message: `${'x'.repeat(180)} key ${API_KEY} was refused` } } };
    const error = await providerError(model().complete([{ role: 'user', content: 'Hi' }]));
    assert.ok(!error.message.includes(API_KEY.slice(0, 10)), error.message);
  });

  it('treats a refused request (400, 404) as permanent', async () => {
    for (const status of [400, 404]) {
      reply = { status, body: { error: { message: 'model "nope" not found' } } };
      const error = await providerError(model().complete([{ role: 'user', content: 'Hi' }]));
      assert.equal(error.transient, false);
      assert.match(error.message, /model "nope" not found/);
    }
  });

  it('treats 429 as transient and passes on Retry-After', async () => {
    reply = { status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'Rate limit reached' } } };
    const error = await providerError(model().complete([{ role: 'user', content: 'Hi' }]));
    assert.equal(error.transient, true);
    assert.equal(error.retryAfterSeconds, 7);
  });

  it('treats server errors and 408 as transient', async () => {
    for (const status of [500, 502, 503, 408]) {
      reply = { status, body: 'upstream unavailable' };
      const error = await providerError(model().complete([{ role: 'user', content: 'Hi' }]));
      assert.equal(error.transient, true, `HTTP ${status}`);
      assert.equal(error.retryAfterSeconds, null);
    }
  });

  it('treats a model that does not answer in time as transient', async () => {
    reply = { hang: true };
    const error = await providerError(model({ timeoutMs: 50 }).complete([{ role: 'user', content: 'Hi' }]));
    assert.equal(error.transient, true);
    assert.match(error.message, /no answer within 50 ms/);
  });

  it('treats a server that cannot be reached as transient', async () => {
    const client = openAiChatModel({ baseUrl: `${await unusedUrl()}/v1`, apiKey: API_KEY, model: 'm', timeoutMs: 5000 });
    const error = await providerError(client.complete([{ role: 'user', content: 'Hi' }]));
    assert.equal(error.transient, true);
    assert.match(error.message, /ECONNREFUSED/);
  });

  it('treats an answer it cannot read as permanent', async () => {
    for (const unreadable of [{ body: '<html>Bad gateway</html>' }, { body: { choices: [] } }, completion(null)]) {
      reply = unreadable;
      const error = await providerError(model().complete([{ role: 'user', content: 'Hi' }]));
      assert.equal(error.transient, false);
    }
  });

  it("stops when the caller's signal fires, with the caller's reason", async () => {
    reply = { hang: true };
    const controller = new AbortController();
    const pending = model().complete([{ role: 'user', content: 'Hi' }], { signal: controller.signal });
    const reason = new Error('worker shutting down');
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(pending, (error) => error === reason);
  });
});
