import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OPERATION_IDS } from '../src/http/openapi.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { openApiDocument } from './openapi-document.ts';

type Operation = { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; parameters?: Array<{ name: string; in: string }>; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };

describe('OpenAPI, docs and health', () => {
  let t: TestApp;
  let raw: typeof doc;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, { scheme?: string }> } };
  before(async () => {
    t = await startTestApp();
    // Schemas with their `$ref`s followed, for the tests that read an operation's schemas; raw: as served.
    ({ raw, resolved: doc } = await openApiDocument<typeof doc>(t));
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

  it('names every operation with a stable, readable, unique operationId', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, id: (op as { operationId?: string }).operationId })));
    for (const { where, id } of ops) {
      assert.equal(typeof id, 'string', `${where} has an operationId`);
      assert.match(id!, /^[a-z][A-Za-z]+$/, where);
      assert.equal(OPERATION_IDS[where], id, `${where}: in the table of src/http/openapi.ts, not made up from its path`);
    }
    assert.equal(new Set(ops.map((o) => o.id)).size, ops.length, 'unique');
    const byWhere = Object.fromEntries(ops.map((o) => [o.where, o.id]));
    assert.equal(byWhere['POST /api/forms'], 'createForm');
    assert.equal(byWhere['GET /api/forms/{form_id}/submissions'], 'listSubmissions');
    assert.equal(byWhere['POST /api/{segment}/f/{slug}'], 'submitToForm');
  });

  it("declares the submission endpoint's optional token and Idempotency-Key header, servers, tags and licence", () => {
    const submit = doc.paths['/api/{segment}/f/{slug}']!.post! as Operation & { security?: unknown };
    assert.deepEqual(submit.security, [{}, { submissionToken: [] }]);
    assert.equal(doc.components.securitySchemes.submissionToken?.scheme, 'bearer');
    const header = submit.parameters!.find((p) => p.in === 'header' && p.name === 'Idempotency-Key') as { required?: boolean; schema: { maxLength: number } } | undefined;
    assert.ok(header, 'Idempotency-Key is a header parameter');
    assert.equal(header.required ?? false, false);
    assert.equal(header.schema.maxLength, 256);
    const top = doc as unknown as { servers: Array<{ url: string }>; tags: Array<{ name: string }>; info: { license: { name: string } } };
    assert.deepEqual(top.servers.map((s) => s.url), ['/'], 'no public URL configured: this server');
    assert.equal(top.info.license.name, 'MIT');
    const used = new Set(Object.values(doc.paths).flatMap((methods) => Object.values(methods).flatMap((op) => (op as { tags?: string[] }).tags ?? [])));
    assert.deepEqual([...used].sort(), top.tags.map((tag) => tag.name).sort(), 'every tag used is listed, and only those');
  });

  it('names the shared schemas under components and refers to them from the operations, one error body per family', () => {
    const schemas = (raw.components as unknown as { schemas: Record<string, { properties?: Record<string, unknown> }> }).schemas;
    for (const name of ['Form', 'FormCreated', 'FormSummary', 'FieldsSchema', 'FieldDefinition', 'Submission', 'SubmissionAccepted', 'Error', 'SubmissionsError', 'FormsError', 'FormsNotFound']) {
      assert.ok(schemas[name], `components.schemas.${name}`);
    }
    const schemaOf = (path: string, method: string, status: string, media = 'application/json') =>
      raw.paths[path]![method]!.responses[status]!.content![media]!.schema as { $ref?: string; properties?: Record<string, { items?: { $ref?: string } }> };
    const ref = (name: string) => `#/components/schemas/${name}`;
    assert.equal(schemaOf('/api/forms/{id}', 'get', '200').$ref, ref('Form'));
    assert.equal(schemaOf('/api/forms', 'post', '201').$ref, ref('FormCreated'));
    assert.equal(schemaOf('/api/forms', 'get', '200').properties!.forms!.items!.$ref, ref('FormSummary'));
    assert.equal(schemaOf('/api/forms/{form_id}/submissions/{id}', 'get', '200').$ref, ref('Submission'));
    assert.equal(schemaOf('/api/{segment}/f/{slug}', 'post', '201').$ref, ref('SubmissionAccepted'));
    // Each family's own error format (src/http/error-replies.ts).
    assert.equal(schemaOf('/api/forms/{id}', 'get', '404').$ref, ref('FormsNotFound'));
    assert.equal(schemaOf('/api/forms', 'post', '422').$ref, ref('FormsError'));
    assert.equal(schemaOf('/api/forms/{form_id}/submissions/{id}', 'get', '404').$ref, ref('SubmissionsError'));
    assert.equal(schemaOf('/api/{segment}/f/{slug}', 'post', '400').$ref, ref('Error'));
    assert.equal(schemaOf('/api/account', 'patch', '400').$ref, ref('Error'));
    // Named schemas refer to each other: a form's input holds FieldsSchema, which holds FieldDefinitions.
    const input = raw.paths['/api/forms']!.post!.requestBody!.content['application/json']!.schema as { $ref?: string };
    const formInput = schemas[input.$ref!.split('/').pop()!] as { properties: { fields_schema: { $ref: string } } };
    assert.equal(formInput.properties.fields_schema.$ref, ref('FieldsSchema'));
    assert.equal((schemas.FieldsSchema as { properties: { fields: { items: { $ref: string } } } }).properties.fields.items.$ref, ref('FieldDefinition'));
    // Every component is used, and resolved it is the schema the route answers with.
    const text = JSON.stringify(raw);
    for (const name of Object.keys(schemas)) assert.ok(text.includes(`"${ref(name)}"`), `${name} is referred to`);
    assert.deepEqual(Object.keys((doc.components as unknown as { schemas: Record<string, { properties: object }> }).schemas.Form!.properties).slice(0, 3), ['id', 'name', 'slug']);
  });

  it('gives the configured public URL as the server', async () => {
    const other = await startTestApp({ INTAKE_PUBLIC_URL: 'https://forms.example.com' });
    try {
      const served = (await other.request({ method: 'GET', url: '/openapi.json' })).json();
      assert.deepEqual(served.servers.map((s: { url: string }) => s.url), ['https://forms.example.com']);
    } finally {
      await other.close();
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
