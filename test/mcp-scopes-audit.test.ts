import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm } from './helpers.ts';
import { callError, callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';

describe('key scopes and the audit log', () => {
  let t: McpApp;
  let email: string;
  let fullKey: string;
  let readKey: string;
  before(async () => {
    t = await startMcpApp();
    email = `scoped-${Date.now()}@example.com`;
    fullKey = (await t.services.accounts.createKey({ email, name: 'laptop' })).key;
    readKey = (await t.services.accounts.createKey({ email, name: 'agent (read)', scope: 'read' })).key;
  });
  after(() => t.close());

  it('refuses an unknown scope when a key is created', async () => {
    await assert.rejects(t.services.accounts.createKey({ email, name: 'x', scope: 'admin' }), /scope is full or read/);
  });

  it('shows a read key only the read-only tools, and refuses it the others', async () => {
    const full = await (await t.connect(fullKey)).listTools();
    const client = await t.connect(readKey);
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0 && tools.length < full.tools.length);
    assert.ok(tools.every((tool) => tool.annotations?.readOnlyHint === true));
    assert.ok(full.tools.some((tool) => tool.name === 'delete_form'));
    const form = await createForm(t, fullKey);
    assert.equal((await callOk(client, 'get_form', { form_id: form.id })).id, form.id);
    const refused = await callError(client, 'delete_form', { form_id: form.id });
    assert.equal(refused.code, 'insufficient_scope');
    const still = await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(fullKey) });
    assert.equal(still.statusCode, 200);
  });

  it('answers a read key 403 insufficient_scope on every REST write, and serves its reads', async () => {
    const form = await createForm(t, fullKey);
    const writes = [
      { method: 'POST', url: '/api/forms', payload: { name: 'X', slug: 'x-1', visibility: 'public', fields_schema: { fields: [] } } },
      { method: 'PUT', url: `/api/forms/${form.id}`, payload: { name: 'Renamed' } },
      { method: 'DELETE', url: `/api/forms/${form.id}` },
      { method: 'PATCH', url: '/api/account', payload: { language: 'de' } },
      { method: 'POST', url: `/api/forms/${form.id}/destinations`, payload: { type: 'email', recipients: ['a@example.com'] } },
    ] as const;
    for (const write of writes) {
      const response = await t.request({ ...write, headers: bearer(readKey) });
      assert.equal(response.statusCode, 403, `${write.method} ${write.url}`);
      assert.equal(response.json().error.code, 'insufficient_scope');
      assert.ok(response.headers['x-service-credits-remaining'] !== undefined);
    }
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(readKey) })).json().name, 'Contact');
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(readKey) })).statusCode, 200);
  });

  it('records writes from both surfaces, newest first, with key, surface, operation and target', async () => {
    const owner = `audited-${Date.now()}@example.com`;
    const created = await t.services.accounts.createKey({ email: owner, name: 'ci key' });
    const reader = await t.services.accounts.createKey({ email: owner, name: 'reader', scope: 'read' });
    const form = await createForm(t, created.key);
    const client = await t.connect(created.key);
    await callOk(client, 'update_form', { form_id: form.id, name: 'Renamed by agent' });
    await callOk(client, 'list_forms');
    await callError(client, 'delete_form', { form_id: '00000000-0000-0000-0000-000000000000' });
    await t.request({ method: 'DELETE', url: `/api/forms/${form.id}`, headers: bearer(reader.key) });
    await t.request({ method: 'GET', url: `/api/forms`, headers: bearer(created.key) });

    const response = await t.request({ method: 'GET', url: '/api/audit?page_size=10', headers: bearer(reader.key) });
    assert.equal(response.statusCode, 200);
    const { data, meta } = response.json();
    assert.equal(meta.total_count, 4, 'reads are not audited');
    assert.deepEqual(
      data.map((e: Record<string, unknown>) => [e.surface, e.operation, e.target_id, e.key_name, e.outcome]),
      [
        ['api', 'DELETE /api/forms/:id', form.id, 'reader', 'failed'],
        ['mcp', 'delete_form', '00000000-0000-0000-0000-000000000000', 'ci key', 'failed'],
        ['mcp', 'update_form', form.id, 'ci key', 'succeeded'],
        ['api', 'POST /api/forms', form.id, 'ci key', 'succeeded'],
      ],
    );
    assert.equal(data[3].key_id, created.id);
    const page2 = (await t.request({ method: 'GET', url: '/api/audit?page=2&page_size=3', headers: bearer(reader.key) })).json();
    assert.equal(page2.data.length, 1);
    assert.equal(page2.data[0].operation, 'POST /api/forms');

    const listed = await callOk(await t.connect(reader.key), 'list_audit', { page_size: 2 });
    assert.equal(listed.entries.length, 2);
    assert.equal(listed.entries[0].operation, 'DELETE /api/forms/:id');
    assert.equal(listed.total_count, 4);
    const other = (await t.request({ method: 'GET', url: '/api/audit', headers: bearer(await t.createKey()) })).json();
    assert.equal(other.meta.total_count, 0, "another owner's trail is not shown");
  });
});
