// What a server that has taken a submission holds without needing it (docs/memory.md): the pg driver
// on SQLite, the stop-word package's ~60 languages (the replies use five, built into
// src/knowledge/stop-lists.ts), re2js before any form has a pattern rule, file-type before an
// upload. Every package Intake's modules import is watched from before the app's first import;
// re2js then loads with the first pattern (file uploads are tested in test/files*.test.ts).
import assert from 'node:assert/strict';
import { registerHooks } from 'node:module';
import { describe, it } from 'node:test';

// Packages imported by Intake's own modules (the test helpers import pg themselves).
const resolved = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(result.url);
    if (match?.[1] && context.parentURL?.includes('/src/')) resolved.add(match[1]);
    return result;
  },
});

const { ENGINE } = await import('./helpers.ts');
const { bearer, createForm, settled, startPipelineApp, submit } = await import('./pipeline-helpers.ts');

describe('modules of a server that has taken a submission', () => {
  it('loads neither stopword, re2js nor file-type, nor pg on SQLite; re2js with the first pattern rule', async () => {
    const t = await startPipelineApp();
    try {
      const key = await t.createKey();
      const form = await createForm(t, key);
      const id = await submit(t, form.endpoint, { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Do you ship to Canada?' });
      await settled(t, key, form.id, id);
      assert.ok(resolved.has('fastify') && resolved.has('kysely'), 'the watch sees the server\'s modules');
      assert.ok(!resolved.has('stopword'), 'the stop-word package');
      assert.ok(!resolved.has('re2js'), 're2js before any pattern rule');
      assert.ok(!resolved.has('file-type'), 'file-type before any upload');
      if (ENGINE === 'sqlite') assert.ok(!resolved.has('pg'), 'pg on SQLite');

      const schema = { fields: [{ name: 'code', type: 'string', required: true, rules: [{ op: 'pattern', value: '^[A-Z]{2}\\d{3}$' }] }] };
      const coded = await createForm(t, key, { fields_schema: schema });
      assert.ok(resolved.has('re2js'), 're2js once a pattern is saved');
      const good = await t.request({ method: 'POST', url: new URL(coded.endpoint).pathname, payload: { code: 'AB123' } });
      assert.equal(good.statusCode, 201, good.body);
      const bad = await t.request({ method: 'POST', url: new URL(coded.endpoint).pathname, payload: { code: 'ab123' } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.body, /does not match the required format/);
      const refused = await t.request({ method: 'POST', url: '/api/forms', headers: bearer(key), payload: { name: 'Look', slug: 'lookahead', fields_schema: { fields: [{ name: 'x', type: 'string', rules: [{ op: 'pattern', value: 'a(?=b)' }] }] } } });
      assert.equal(refused.statusCode, 422, refused.body);
      assert.match(refused.body, /unsupported Perl syntax: `\(\?=`/);
    } finally {
      await t.close();
    }
  });
});
