import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './helpers.ts';

type Operation = { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };

describe('OpenAPI, docs and health', () => {
  let t: TestApp;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { scheme?: string }> } };
  before(async () => {
    t = await startTestApp();
    const response = await t.request({ method: 'GET', url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    doc = response.json();
  });
  after(() => t.close());

  it('describes every route with its methods', () => {
    assert.equal(doc.openapi, '3.1.0');
    const expected: Record<string, string[]> = {
      '/api/forms': ['get', 'post'],
      '/api/forms/{id}': ['delete', 'get', 'put'],
      '/api/forms/{form_id}/submissions': ['get'],
      '/api/forms/{form_id}/submissions/{id}': ['delete', 'get', 'patch'],
      '/api/{segment}/f/{slug}': ['get', 'post'],
      '/api/account': ['get', 'patch'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      assert.ok(doc.paths[path], `${path} is documented`);
      assert.deepEqual(Object.keys(doc.paths[path]!).sort(), methods, path);
    }
    assert.equal(doc.components.securitySchemes.apiKey?.scheme, 'bearer');
  });

  it('is OpenAPI 3.1 in form: JSON Schema null types rather than 3.0 nullable, media types with only their own fields', () => {
    assert.doesNotMatch(JSON.stringify(doc), /"nullable":/);
    const mediaFields = new Set(['schema', 'example', 'examples', 'encoding']);
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const bodies = [operation.requestBody?.content, ...Object.values(operation.responses).map((r) => r.content)];
        for (const media of bodies.flatMap((content) => Object.values(content ?? {}))) {
          assert.deepEqual(Object.keys(media).filter((key) => !mediaFields.has(key)), [], `${method} ${path}`);
        }
      }
    }
  });

  it('documents request schemas from the ones routes validate with', () => {
    const create = doc.paths['/api/forms']!.post!.requestBody!.content['application/json']!.schema as { required: string[] };
    assert.deepEqual([...create.required].sort(), ['fields_schema', 'name', 'slug', 'visibility']);
    const params = doc.paths['/api/forms/{form_id}/submissions']!.get!.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    assert.deepEqual(params.sort(), ['done', 'filter', 'page', 'page_size', 'processing_status', 'reply_status', 'search', 'since', 'sort_by', 'sort_order', 'spam', 'until']);
  });

  it('never documents a secret as something a form returns', () => {
    for (const path of ['/api/forms', '/api/forms/{id}']) {
      for (const operation of Object.values(doc.paths[path]!)) {
        for (const response of Object.values(operation.responses)) {
          const text = JSON.stringify(response.content ?? {});
          assert.equal(text.includes('webhook_secret'), false, path);
          assert.equal(text.includes('token_hash'), false, path);
        }
      }
    }
  });

  it('serves the docs page, health, and a JSON 404 for unknown routes', async () => {
    let response = await t.request({ method: 'GET', url: '/docs' });
    if (response.statusCode >= 300 && response.statusCode < 400) {
      response = await t.request({ method: 'GET', url: new URL(String(response.headers.location), 'http://x').pathname });
    }
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /<html/i);
    const health = await t.request({ method: 'GET', url: '/healthz' });
    assert.deepEqual([health.statusCode, health.json().status], [200, 'ok']);
    const missing = await t.request({ method: 'GET', url: '/no/such/route' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.code, 'not_found');
  });
});
