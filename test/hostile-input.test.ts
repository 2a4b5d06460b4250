// Hostile input over HTTP, on the engine the run is for: a catastrophic owner pattern cannot
// stall the server, and text the databases would refuse (NUL, lone surrogates) gets the same
// documented 400 on SQLite and PostgreSQL, never a 5xx, with nothing stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';

describe('hostile input', () => {
  let t: TestApp;
  let key: string;
  let base: string;
  before(async () => {
    t = await startTestApp();
    key = await t.createKey();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  /** How long /healthz takes while `work` is under way. */
  async function healthDuring(work: Promise<unknown>): Promise<number> {
    const started = performance.now();
    const health = await fetch(`${base}/healthz`);
    const elapsed = performance.now() - started;
    assert.equal(health.status, 200);
    await work;
    return elapsed;
  }

  it('answers catastrophic patterns at once and keeps /healthz responsive', async () => {
    const patterns = ['^(a+)+$', '^(a|aa)+$', '^([a-z]+)*[0-9]$'];
    const form = await createForm(t, key, {
      fields_schema: { fields: patterns.map((value, index) => ({ name: `f${index}`, type: 'string', rules: [{ op: 'pattern', value }] })) },
    });
    const attack = { f0: `${'a'.repeat(40)}!`, f1: `${'a'.repeat(40)}!`, f2: `${'abc'.repeat(20)}!` };
    const submissions = Array.from({ length: 5 }, () => post(pathOf(form.endpoint), JSON.stringify(attack)));
    // Exponential backtracking on 40 characters takes hours: any answer at all within the test's life shows linearity.
    const healthMs = await healthDuring(Promise.all(submissions));
    const answers = await Promise.all(submissions);
    for (const answer of answers) {
      assert.equal(answer.status, 400);
      const { error } = await answer.json() as { error: { details: Record<string, string[]> } };
      assert.deepEqual(error.details, { f0: ['does not match the required format'], f1: ['does not match the required format'], f2: ['does not match the required format'] });
    }
    assert.ok(healthMs < 1_000, `/healthz took ${healthMs.toFixed(0)} ms`);
    assert.equal((await post(pathOf(form.endpoint), JSON.stringify({ f0: 'aaaa', f1: 'aa', f2: 'abc1' }))).status, 201);
  });

  it('refuses a lookaround pattern when the form is saved, naming the construct', async () => {
    const response = await post('/api/forms', JSON.stringify({
      name: 'X', slug: 'lookaround', visibility: 'public',
      fields_schema: { fields: [{ name: 'code', type: 'string', rules: [{ op: 'pattern', value: '^(?!admin)' }] }] },
    }), bearer(key));
    assert.equal(response.status, 422);
    const body = await response.json() as { errors: { fields_schema: string[] } };
    assert.match(body.errors.fields_schema.join(' '), /unsupported Perl syntax: `\(\?!`/);
  });

  describe('text the databases cannot store', () => {
    let form: Awaited<ReturnType<typeof createForm>>;
    before(async () => {
      form = await createForm(t, key);
    });
    const stored = async () => {
      const response = await fetch(`${base}/api/forms/${form.id}/submissions?filter=all`, { headers: bearer(key) });
      return ((await response.json()) as { meta: { total_count: number } }).meta.total_count;
    };

    const cases = [
      { label: 'a NUL character', message: 'hi\\u0000there', expected: /NUL/ },
      { label: 'a lone high surrogate', message: 'broken \\ud800 text', expected: /unpaired UTF-16 surrogate/ },
      { label: 'a lone low surrogate', message: '\\udc00', expected: /unpaired UTF-16 surrogate/ },
    ];
    for (const { label, message, expected } of cases) {
      it(`refuses a submission with ${label} with 400 naming the field, and stores nothing`, async () => {
        const before = await stored();
        const response = await post(pathOf(form.endpoint), `{"name":"Ada","email":"ada@example.com","message":"${message}"}`);
        assert.equal(response.status, 400);
        const { error } = await response.json() as { error: { code: string; details: Record<string, string[]> } };
        assert.equal(error.code, 'validation_error');
        assert.deepEqual(Object.keys(error.details), ['message']);
        assert.match(error.details.message?.[0] ?? '', expected);
        assert.equal(await stored(), before);
      });
    }

    it('stores a well-formed surrogate pair (an emoji) faithfully', async () => {
      const response = await post(pathOf(form.endpoint), '{"name":"Ada \\ud83d\\ude00","email":"ada@example.com"}');
      assert.equal(response.status, 201);
      const { id } = await response.json() as { id: string };
      const read = await fetch(`${base}/api/forms/${form.id}/submissions/${id}`, { headers: bearer(key) });
      assert.equal(((await read.json()) as { data: { name: string } }).data.name, 'Ada 😀');
    });

    it('names a bad key and a nested value in the management API', async () => {
      const response = await post('/api/forms', '{"name":"A\\u0000","slug":"nul","visibility":"public","fields_schema":{"fields":[{"name":"x\\ud800","type":"string"}]}}', bearer(key));
      assert.equal(response.status, 422);
      const { errors } = await response.json() as { errors: Record<string, string[]> };
      assert.deepEqual(Object.keys(errors).sort(), ['fields_schema.fields[0].name', 'name']);
      assert.equal(response.headers.get('x-service-metered'), 'false');
    });

    it('answers 422, not 500, to a body member named like an Object.prototype property', async () => {
      const response = await post('/api/forms', '{"constructor":"","toString":1}', bearer(key));
      assert.equal(response.status, 422);
      const { errors } = await response.json() as { errors: Record<string, string[]> };
      assert.deepEqual(errors.constructor, ['is not a known field']);
    });

    for (const path of ['/api/forms/%00', '/api/x%00/f/contact', '/api/forms?x=%ED%A0%80', '/api/%ED%A0%80/f/slug']) {
      it(`refuses ${path} with a 4xx, not a 5xx`, async () => {
        const response = await fetch(`${base}${path}`, { headers: bearer(key) });
        assert.ok(response.status >= 400 && response.status < 500, `${response.status}`);
      });
    }
  });
});
