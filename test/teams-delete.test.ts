// Deleting a workspace (issue 39) over real requests, on the engine of the run: owners only, with its
// name typed back; its rows, file bytes, keys and members go; members keep their logins and their
// other workspaces; the operator's log records it. And an email destination made role-only by PATCH.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from './dashboard-helpers.ts';
import { bearer, createForm } from './helpers.ts';
import { startMcpApp, type McpApp } from './mcp-helpers.ts';

const PASSWORD = 'correct horse battery';

function withFile(fields: Record<string, string>, field: string, text: string, filename: string): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append(field, new Blob([text]), filename);
  return body;
}

async function join(t: McpApp, ownerKey: string, email: string, role: string): Promise<string> {
  const invited = await t.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email, role } });
  assert.equal(invited.statusCode, 201, invited.body);
  const token = new URL(invited.json().invite_url).searchParams.get('token')!;
  const client = new DashboardClient(t);
  await client.get(`/invite?token=${token}`);
  assert.equal((await client.post('/invite', { token, password: PASSWORD })).statusCode, 303);
  const person = await t.services.accounts.find(email);
  return (await t.services.accounts.createKey({ email: 'owner@delete.example', name: `${email} key`, personId: person!.id })).key;
}

describe('deleting a workspace', () => {
  let t: McpApp;
  const OPERATOR = 'operator@delete.example';
  const OWNER = 'owner@delete.example';
  let ownerKey: string;

  before(async () => {
    t = await startMcpApp();
    const setup = await t.services.setup.newToken();
    await t.services.dashboard.setUp(setup!.token, OPERATOR, PASSWORD);
    ownerKey = await t.createKey(OWNER);
  });
  after(() => t.close());

  it('refuses admins, a wrong or missing name, then deletes everything but the logins, and records it in the operator\'s log', async () => {
    const adminKey = await join(t, ownerKey, 'admin@delete.example', 'admin');
    const editorKey = await join(t, ownerKey, 'editor@delete.example', 'editor');
    // The editor has a workspace of their own too, which stays.
    const elsewhere = await t.createKey('editor@delete.example');
    const form = await createForm(t, ownerKey, { fields_schema: { fields: [{ name: 'name', type: 'string', required: true }, { name: 'notes', type: 'file' }] } });
    // A submission with a file, through the HTML endpoint's multipart (as a browser sends it).
    const multipart = new Request('http://x/', { method: 'POST', body: withFile({ name: 'Ada' }, 'notes', 'Hello there, a question\n', 'notes.txt') });
    const sent = await t.request({ method: 'POST', url: new URL(String(form.html_endpoint)).pathname, headers: { accept: 'application/json', 'content-type': multipart.headers.get('content-type')! }, payload: Buffer.from(await multipart.arrayBuffer()) });
    assert.equal(sent.statusCode, 201, sent.body);
    const bytes = path.join(t.config.dataDir, 'files', String(sent.json().data.notes[0].id));
    assert.ok(fs.existsSync(bytes), 'the file is stored on disk');
    assert.equal((await t.request({ method: 'POST', url: '/api/knowledge_bases', headers: bearer(ownerKey), payload: { name: 'FAQ', content: 'Q: Hours?\nA: Nine to five.' } })).statusCode, 201);

    for (const key of [adminKey, editorKey]) {
      const refused = await t.request({ method: 'DELETE', url: '/api/workspace', headers: bearer(key), payload: { confirm: OWNER } });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.code, 'insufficient_role');
    }
    const wrong = await t.request({ method: 'DELETE', url: '/api/workspace', headers: bearer(ownerKey), payload: { confirm: 'someone@delete.example' } });
    assert.equal(wrong.statusCode, 422);
    assert.equal(wrong.json().error.code, 'cannot_delete');
    assert.equal((await t.request({ method: 'DELETE', url: '/api/workspace', headers: bearer(ownerKey) })).statusCode, 400);
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(ownerKey) })).statusCode, 200);

    const deleted = await t.request({ method: 'DELETE', url: '/api/workspace', headers: bearer(ownerKey), payload: { confirm: ` ${OWNER.toUpperCase()} ` } });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json(), { workspace: OWNER, forms: 1, submissions: 1, files: 1, knowledge_bases: 1, members: 3 });
    assert.equal(fs.existsSync(bytes), false, 'its bytes are gone from the disk');

    const { db } = t.database;
    const workspace = (await t.services.accounts.find(OWNER))!;
    assert.deepEqual(await db.selectFrom('forms').select('id').where('account_id', '=', workspace.id).execute(), []);
    assert.deepEqual(await db.selectFrom('submissions').select('id').where('form_id', '=', form.id).execute(), []);
    assert.deepEqual(await db.selectFrom('knowledge_bases').select('id').where('account_id', '=', workspace.id).execute(), []);
    assert.deepEqual(await db.selectFrom('workspace_members').select('id').where('workspace_id', '=', workspace.id).execute(), []);
    for (const key of [ownerKey, adminKey, editorKey]) assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) })).statusCode, 401);
    // Logins stay: the editor lands in their own workspace, the admin in none.
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(elsewhere) })).statusCode, 200);
    assert.ok(await t.services.accounts.find('admin@delete.example'));
    assert.equal((await new DashboardClient(t).logIn('editor@delete.example', PASSWORD)).statusCode, 303);
    assert.equal((await new DashboardClient(t).logIn('admin@delete.example', PASSWORD)).statusCode, 401);

    const operator = (await t.services.accounts.find(OPERATOR))!;
    const log = await t.services.audit.list(operator.id, 1, 10);
    const entry = log.data.find((e) => e.operation === 'delete workspace');
    assert.ok(entry, 'recorded in the operator\'s log');
    assert.equal(entry.target_id, workspace.id);
    assert.match(entry.detail ?? '', /deleted workspace owner@delete\.example: 1 forms, 1 submissions/);
  });

  it('deletes through MCP for an owner with the name, and lets an email destination become role-only by PATCH', async () => {
    const key = await t.createKey('agent-owner@delete.example');
    const form = await createForm(t, key);
    const created = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'email', recipients: ['a@example.com'], recipients_role: 'editor' } });
    assert.equal(created.statusCode, 201, created.body);
    const url = `/api/forms/${form.id}/destinations/${created.json().id}`;
    const roleOnly = await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { recipients: null } });
    assert.equal(roleOnly.statusCode, 200, roleOnly.body);
    assert.deepEqual([roleOnly.json().recipients, roleOnly.json().recipients_role], [[], 'editor']);
    const neither = await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { recipients_role: null } });
    assert.equal(neither.statusCode, 422, neither.body);
    const none = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'email' } });
    assert.equal(none.statusCode, 422);

    const client = await t.connect(key);
    const refused = await client.callTool({ name: 'delete_workspace', arguments: { confirm: 'nope@delete.example' } });
    assert.equal(refused.isError, true);
    const done = await client.callTool({ name: 'delete_workspace', arguments: { confirm: 'agent-owner@delete.example' } });
    assert.notEqual(done.isError, true, JSON.stringify(done.content));
    assert.equal((done.structuredContent as { forms: number }).forms, 1);
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) })).statusCode, 401);
  });
});
