// /openapi.json against what the server does: every documented operation is called the ways a
// generated client or a property-based tester would (no key, a read key on a write, a body that is
// not JSON, not JSON at all, an empty object, a bad query, an unknown id, and as the owner), and
// every answer must be documented: its status, its content type and the shape of its body.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { bearer, createForm, pathOf, startTestApp, type TestApp } from './helpers.ts';
import { agentPrompt } from '../src/dashboard/pages/snippets.ts';

type Media = Record<string, { schema?: object }>;
type Operation = { security?: unknown[]; requestBody?: unknown; parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: Media }> };

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('OpenAPI document against the server', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  let fullKey: string;
  let readKey: string;
  let endpoint: { segment: string; slug: string };
  const ajv = new Ajv({ strict: false, allErrors: true });
  before(async () => {
    t = await startTestApp();
    doc = (await t.request({ method: 'GET', url: '/openapi.json' })).json();
    fullKey = await t.createKey('contract@example.com');
    readKey = (await t.services.accounts.createKey({ email: 'contract@example.com', name: 'reader', scope: 'read' })).key;
    const form = await createForm(t, fullKey);
    const [, , segment, , slug] = pathOf(form.endpoint).split('/');
    endpoint = { segment: segment!, slug: slug! };
  });
  after(() => t.close());

  function urlOf(template: string, known: boolean): string {
    return template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'segment') return known ? endpoint.segment : 'nope';
      if (name === 'slug') return known ? endpoint.slug : 'nope';
      return UNKNOWN_ID;
    });
  }

  it('documents every status, content type and body the server answers with', async () => {
    const problems: string[] = [];
    let calls = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const secured = (operation.security?.length ?? 0) > 0;
        const hasQuery = operation.parameters?.some((p) => p.in === 'query') ?? false;
        const attempts: Array<{ name: string; headers: Record<string, string>; payload?: string; query?: string; known?: boolean }> = [
          { name: 'as the owner', headers: bearer(fullKey), known: true },
          { name: 'unknown ids', headers: bearer(fullKey) },
        ];
        if (secured) attempts.push({ name: 'no key', headers: {} }, { name: 'a wrong key', headers: bearer('ik_wrong') });
        if (secured && method !== 'get') attempts.push({ name: 'a read key', headers: bearer(readKey), known: true });
        if (operation.requestBody) {
          attempts.push(
            { name: 'broken JSON', headers: { ...bearer(fullKey), 'content-type': 'application/json' }, payload: '{"a":', known: true },
            { name: 'not JSON', headers: { ...bearer(fullKey), 'content-type': 'text/plain' }, payload: 'hello', known: true },
            { name: 'an empty object', headers: { ...bearer(fullKey), 'content-type': 'application/json' }, payload: '{}', known: true },
            { name: 'a NUL', headers: { ...bearer(fullKey), 'content-type': 'application/json' }, payload: '{"name":"a\\u0000b","content":"x\\u0000"}', known: true },
          );
        }
        if (hasQuery) attempts.push({ name: 'a bad query', headers: bearer(fullKey), query: 'page=0&page_size=-1&filter=nope', known: true });

        for (const attempt of attempts) {
          const url = `${urlOf(template, attempt.known ?? false)}${attempt.query ? `?${attempt.query}` : ''}`;
          const response = await t.request({ method: method.toUpperCase() as 'GET', url, headers: attempt.headers, ...(attempt.payload !== undefined && { payload: attempt.payload }) });
          calls++;
          const where = `${method.toUpperCase()} ${template} (${attempt.name}) → ${response.statusCode}`;
          const documented = operation.responses[String(response.statusCode)];
          if (!documented) {
            problems.push(`${where}: status not documented`);
            continue;
          }
          if (response.statusCode >= 500) problems.push(`${where}: a 5xx`);
          const media = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
          if (!documented.content || response.body === '') continue;
          const described = documented.content[media];
          if (!described) {
            problems.push(`${where}: answered ${media}, documented ${Object.keys(documented.content).join(', ')}`);
            continue;
          }
          if (media === 'application/json' && described.schema) {
            const validate = ajv.compile(described.schema);
            if (!validate(response.json())) problems.push(`${where}: body does not match: ${ajv.errorsText(validate.errors)} ${response.body.slice(0, 200)}`);
          }
        }
      }
    }
    assert.ok(calls > 150, `${calls} calls`);
    assert.deepEqual(problems, []);
  });

  it('tells agents, in the prompt the dashboard offers, the status an invalid submission really gets', async () => {
    const form = (await t.services.forms.list((await t.services.accounts.find('contract@example.com'))!.id))[0]!;
    const url = `/api/${endpoint.segment}/f/${endpoint.slug}`;
    const invalid = await t.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"email":"not an address"}' });
    const prompt = agentPrompt(form, `http://localhost${url}`);
    assert.match(prompt, new RegExp(`answer is ${invalid.statusCode} with error.code "${invalid.json().error.code}"`));
  });

  it('leaves the dashboard pages out of the API reference, and marks no defaulted parameter required', () => {
    const paths = Object.keys(doc.paths);
    assert.ok(paths.every((path) => path.startsWith('/api/')), paths.filter((path) => !path.startsWith('/api/')).join(', '));
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of (operation.parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema?: { default?: unknown } }>) {
          if (parameter.in === 'query') assert.ok(!(parameter.required && parameter.schema?.default !== undefined), `${method} ${template} ${parameter.name}`);
        }
      }
    }
  });
});
