// A first start (and every first use of a route) prints nothing but the log: no schema compiler's
// warnings. Response schemas with an input's checks in them (an if/then) made the serializer's Ajv
// warn about "strict mode" on the forms routes, which a newcomer saw in their terminal.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { bearer, createForm, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
const warnings: string[] = [];
const original = { warn: console.warn, log: console.log, error: console.error };

before(async () => {
  for (const name of ['warn', 'log', 'error'] as const) console[name] = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  t = await startTestApp();
});
after(async () => {
  Object.assign(console, original);
  await t?.close();
});

it('compiles the forms routes’ serializers without a warning', async () => {
  const key = await t.createKey();
  const form = await createForm(t, key, { webhook_enabled: false });
  for (const [method, url, payload] of [['GET', `/api/forms/${form.id}`], ['GET', '/api/forms'], ['PUT', `/api/forms/${form.id}`, { name: 'Renamed' }]] as const) {
    const response = await t.request({ method, url, headers: bearer(key), ...(payload && { payload }) });
    assert.ok(response.statusCode < 300, response.body);
  }
  assert.deepEqual(warnings.filter((w) => /strict mode|schema/i.test(w)), []);
});
