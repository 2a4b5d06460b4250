// Teams (issue 39) through real requests: members and invitations, the role matrix of every REST
// route and MCP tool generated from src/workspaces/permissions.ts, isolation between workspaces,
// and removal that stops a member's key at once.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ALL_TOOLS } from '../src/mcp/tools/index.ts';
import { MINIMUM_ROLE, REST_ACTIONS, ROLES, TOOL_ACTIONS, allows, type Role } from '../src/workspaces/permissions.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { bearer, CONTACT_SCHEMA, createForm } from './helpers.ts';
import { startMcpApp, type McpApp } from './mcp-helpers.ts';

const PASSWORD = 'correct horse battery';

/** Invites `email` as `role` with the owner's key and accepts the link in a fresh browser; returns the invitee's client. */
async function join(t: McpApp, ownerKey: string, email: string, role: Role): Promise<{ client: DashboardClient; memberId: string }> {
  const invited = await t.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email, role } });
  assert.equal(invited.statusCode, 201, invited.body);
  const { member, invite_url: url } = invited.json();
  assert.equal(member.status, 'invited');
  const client = new DashboardClient(t);
  const path = new URL(url).pathname + new URL(url).search;
  assert.equal((await client.get(path)).statusCode, 200);
  const accepted = await client.post('/invite', { token: new URL(url).searchParams.get('token')!, password: PASSWORD });
  assert.equal(accepted.statusCode, 303, accepted.body.slice(0, 500));
  return { client, memberId: member.id };
}

/** A key of the member `email` on the owner's workspace (as the member's Integrations page makes it). */
async function memberKey(t: McpApp, ownerEmail: string, email: string, scope = 'full'): Promise<string> {
  const person = await t.services.accounts.find(email);
  return (await t.services.accounts.createKey({ email: ownerEmail, name: `${email} key`, scope, personId: person!.id })).key;
}

describe('teams', () => {
  let t: McpApp;
  const ownerEmail = 'owner@teams.example';
  let ownerKey: string;
  const keys = new Map<Role, string>();

  before(async () => {
    t = await startMcpApp();
    ownerKey = await t.createKey(ownerEmail);
    keys.set('owner', ownerKey);
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      await join(t, ownerKey, `${role}@teams.example`, role);
      keys.set(role, await memberKey(t, ownerEmail, `${role}@teams.example`));
    }
  });
  after(() => t.close());

  it('lists the owner and the members who accepted, active, each with their role; an invitee new to the server has no workspace of their own', async () => {
    const listed = await t.request({ method: 'GET', url: '/api/members', headers: bearer(keys.get('viewer')!) });
    assert.equal(listed.statusCode, 200);
    const members = listed.json().members as Array<{ email: string; role: string; status: string }>;
    assert.deepEqual(members.map((m) => [m.email, m.role, m.status]).sort(), [
      ['admin@teams.example', 'admin', 'active'], ['editor@teams.example', 'editor', 'active'], [ownerEmail, 'owner', 'active'], ['viewer@teams.example', 'viewer', 'active'],
    ]);
    const twice = await t.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email: 'viewer@teams.example', role: 'editor' } });
    assert.equal(twice.statusCode, 400, twice.body);
    assert.deepEqual(Object.keys(twice.json().error.details), ['email']);
    const viewer = await t.services.accounts.find('viewer@teams.example');
    assert.deepEqual((await t.services.workspaces.memberships(viewer!.id)).map((m) => m.workspaceEmail), [ownerEmail]);
  });

  it('has a permission entry for every documented keyed REST operation and every MCP tool', async () => {
    const document = (await t.request({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // Keyless, or the public submission endpoint (its optional token is the form's, not a member's).
        if (!operation.security?.length || path.includes('/f/{slug}')) continue;
        const key = `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
        if (!REST_ACTIONS[key]) missing.push(key);
      }
    }
    assert.deepEqual(missing, []);
    assert.deepEqual(ALL_TOOLS.map((tool) => tool.name).filter((name) => !TOOL_ACTIONS[name]), []);
    assert.deepEqual(Object.keys(TOOL_ACTIONS).filter((name) => !ALL_TOOLS.some((tool) => tool.name === name)), []);
  });

  it('answers every REST route, for each role, as the table says: 403 insufficient_role below the minimum, anything else at or above', async () => {
    const wrong: string[] = [];
    for (const [route, action] of Object.entries(REST_ACTIONS)) {
      const [method, pattern] = route.split(' ') as [string, string];
      // Made-up ids: the role is checked before the route looks for anything (and nothing is found).
      const url = pattern.replace(/:[a-z_]+/g, () => randomUUID());
      for (const role of ROLES) {
        const response = await t.request({ method: method as 'GET', url, headers: bearer(keys.get(role)!), ...(method !== 'GET' && method !== 'DELETE' && { payload: {} }) });
        const refused = response.statusCode === 403 && response.json().error?.code === 'insufficient_role';
        if (refused === allows(role, action)) wrong.push(`${route} as ${role}: ${response.statusCode} (minimum ${MINIMUM_ROLE[action]})`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('lists and lets each role call only the MCP tools the table allows it', async () => {
    for (const role of ROLES) {
      const client = await t.connect(keys.get(role)!);
      const listed = new Set((await client.listTools()).tools.map((tool) => tool.name));
      const expected = new Set(ALL_TOOLS.filter((tool) => allows(role, TOOL_ACTIONS[tool.name]!)).map((tool) => tool.name));
      assert.deepEqual([...listed].sort(), [...expected].sort(), role);
      for (const tool of ALL_TOOLS.filter((x) => !expected.has(x.name))) {
        const result = await client.callTool({ name: tool.name, arguments: {} });
        assert.equal(result.isError, true);
        assert.match(JSON.stringify(result.content), /insufficient_role/, `${tool.name} as ${role}`);
      }
    }
  });

  it('manages members through the MCP tools for owners', async () => {
    const client = await t.connect(ownerKey);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
      return result.structuredContent as Record<string, any>;
    };
    const invited = await call('invite_member', { email: 'agent-invited@teams.example', role: 'editor' });
    assert.match(invited.invite_url, /\/invite\?token=inv_/);
    assert.ok((await call('list_members', {})).members.some((m: { email: string; status: string }) => m.email === 'agent-invited@teams.example' && m.status === 'invited'));
    assert.equal((await call('update_member', { id: invited.member.id, role: 'viewer' })).role, 'viewer');
    assert.deepEqual(await call('remove_member', { id: invited.member.id }), { id: invited.member.id, removed: true });
  });

  it('records the member and the key of every write in the audit log', async () => {
    const created = await t.request({ method: 'POST', url: '/api/forms', headers: bearer(keys.get('editor')!), payload: { name: 'By editor', slug: `by-editor-${randomUUID().slice(0, 6)}`, visibility: 'public', fields_schema: CONTACT_SCHEMA } });
    assert.equal(created.statusCode, 201, created.body);
    const audit = await t.request({ method: 'GET', url: '/api/audit', headers: bearer(ownerKey) });
    const entry = audit.json().data.find((e: { target_id: string | null }) => e.target_id === created.json().id);
    assert.equal(entry.member, 'editor@teams.example');
    assert.equal(entry.key_name, 'editor@teams.example key');
  });

  it("does not let a viewer see or revoke another member's key on the Integrations page", async () => {
    const ownerKeyId = (await t.services.accounts.listKeys(ownerEmail)).find((k) => k.name === 'test' && !k.revokedAt)!.id;
    const viewer = new DashboardClient(t);
    await viewer.logIn('viewer@teams.example', PASSWORD);
    const page = await viewer.get('/integrations');
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, new RegExp(ownerKeyId));
    assert.equal((await viewer.post(`/integrations/keys/${ownerKeyId}/revoke`)).statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(ownerKey) })).statusCode, 200);
  });

  it('keeps a read-scoped key of an editor to reads (narrowed, never widened)', async () => {
    const key = await memberKey(t, ownerEmail, 'editor@teams.example', 'read');
    const created = await t.request({ method: 'POST', url: '/api/forms', headers: bearer(key), payload: {} });
    assert.equal(created.statusCode, 403);
    assert.equal(created.json().error.code, 'insufficient_scope');
  });

  it("keeps workspaces apart: another workspace's member gets 404 on this one's form", async () => {
    const form = await createForm(t, ownerKey);
    const stranger = await t.createKey('stranger@teams.example');
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(stranger) })).statusCode, 404);
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: bearer(keys.get('viewer')!) })).statusCode, 200);
    const list = await t.request({ method: 'GET', url: '/api/members', headers: bearer(stranger) });
    assert.deepEqual(list.json().members.map((m: { email: string }) => m.email), ['stranger@teams.example']);
  });

  it('refuses a used, forged, expired and cancelled invitation link', async () => {
    const invited = await t.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email: 'once@teams.example', role: 'viewer' } });
    const token = new URL(invited.json().invite_url).searchParams.get('token')!;
    const first = new DashboardClient(t);
    await first.get(`/invite?token=${token}`);
    assert.equal((await first.post('/invite', { token, password: PASSWORD })).statusCode, 303);
    const again = new DashboardClient(t);
    assert.equal((await again.get(`/invite?token=${token}`)).statusCode, 410);
    await again.get('/login');
    assert.equal((await again.post('/invite', { token, password: PASSWORD })).statusCode, 410);
    const forged = new DashboardClient(t);
    assert.equal((await forged.get(`/invite?token=inv_${'A'.repeat(43)}`)).statusCode, 410);

    const late = await t.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email: 'late@teams.example', role: 'viewer' } });
    const lateToken = new URL(late.json().invite_url).searchParams.get('token')!;
    await t.database.db.updateTable('workspace_members').set({ invite_expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', late.json().member.id).execute();
    const lateClient = new DashboardClient(t);
    await lateClient.get('/login');
    assert.equal((await lateClient.post('/invite', { token: lateToken, password: PASSWORD })).statusCode, 410);
    // The new person's login got no workspace and no password from the refused link.
    assert.equal((await lateClient.logIn('late@teams.example', PASSWORD)).statusCode, 401);
  });

  it('keeps one owner: the last cannot be demoted or removed; with a second owner it can', async () => {
    const members = (await t.request({ method: 'GET', url: '/api/members', headers: bearer(ownerKey) })).json().members as Array<{ id: string; email: string }>;
    const own = members.find((m) => m.email === ownerEmail)!;
    const demoted = await t.request({ method: 'PATCH', url: `/api/members/${own.id}`, headers: bearer(ownerKey), payload: { role: 'admin' } });
    assert.equal(demoted.statusCode, 422, demoted.body);
    assert.equal((await t.request({ method: 'DELETE', url: `/api/members/${own.id}`, headers: bearer(ownerKey) })).statusCode, 422);
    const admin = members.find((m) => m.email === 'admin@teams.example')!;
    assert.equal((await t.request({ method: 'PATCH', url: `/api/members/${admin.id}`, headers: bearer(ownerKey), payload: { role: 'owner' } })).statusCode, 200);
    // The admin's key acts with the new role at once: it may manage members now.
    assert.equal((await t.request({ method: 'PATCH', url: `/api/members/${admin.id}`, headers: bearer(keys.get('admin')!), payload: { role: 'admin' } })).statusCode, 200);
  });

  it("removing a member stops their API key and ends their access to the workspace at once", async () => {
    const { memberId } = await join(t, ownerKey, 'leaver@teams.example', 'editor');
    const key = await memberKey(t, ownerEmail, 'leaver@teams.example');
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) })).statusCode, 200);
    assert.equal((await t.request({ method: 'DELETE', url: `/api/members/${memberId}`, headers: bearer(ownerKey) })).statusCode, 200);
    assert.equal((await t.request({ method: 'GET', url: '/api/forms', headers: bearer(key) })).statusCode, 401);
    const client = new DashboardClient(t);
    assert.equal((await client.logIn('leaver@teams.example', PASSWORD)).statusCode, 401);
  });

  it("removing a member ends their OAuth grant on the workspace: its records go and the grant names nobody", async () => {
    const { memberId } = await join(t, ownerKey, 'oauth-leaver@teams.example', 'editor');
    const person = (await t.services.accounts.find('oauth-leaver@teams.example'))!;
    const workspace = (await t.services.accounts.find(ownerEmail))!;
    const { db } = t.database;
    await db.insertInto('oauth_records').values({ model: 'Grant', id: 'grant-of-leaver', payload: '{}', account_id: workspace.id } as never).execute();
    await db.insertInto('oauth_records').values({ model: 'AccessToken', id: 'token-of-leaver', payload: '{}', grant_id: 'grant-of-leaver', account_id: workspace.id } as never).execute();
    await t.services.workspaces.consented('grant-of-leaver', workspace.id, person.id);
    assert.deepEqual(await t.services.workspaces.grantMember('grant-of-leaver', workspace.id), { personId: person.id, role: 'editor', email: 'oauth-leaver@teams.example' });
    assert.equal((await t.request({ method: 'DELETE', url: `/api/members/${memberId}`, headers: bearer(ownerKey) })).statusCode, 200);
    assert.equal(await t.services.workspaces.grantMember('grant-of-leaver', workspace.id), null);
    const left = await db.selectFrom('oauth_records').select('id').where((eb) => eb.or([eb('id', '=', 'grant-of-leaver'), eb('grant_id', '=', 'grant-of-leaver')])).execute();
    assert.deepEqual(left, []);
  });

  it('lets a viewer see the inbox in the dashboard but not delete a submission there', async () => {
    const form = await createForm(t, ownerKey);
    const sent = await t.request({ method: 'POST', url: new URL(form.endpoint).pathname, payload: { name: 'Ada', email: 'ada@example.com', message: 'Hello there, a question' } });
    assert.equal(sent.statusCode, 201, sent.body);
    const submissionId = sent.json().id as string;
    const viewer = new DashboardClient(t);
    await viewer.logIn('viewer@teams.example', PASSWORD);
    const inbox = await viewer.get(`/forms/${form.id}/inbox`);
    assert.equal(inbox.statusCode, 200);
    assert.match(inbox.body, new RegExp(submissionId));
    assert.doesNotMatch(inbox.body, /id="bulk-form"/);
    assert.equal((await viewer.post(`/forms/${form.id}/inbox/bulk`, { action: 'delete', ids: submissionId })).statusCode, 403);
    const page = await viewer.get(`/forms/${form.id}/submissions/${submissionId}`);
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, new RegExp(`/submissions/${submissionId}/delete`));
    assert.equal((await viewer.post(`/forms/${form.id}/submissions/${submissionId}/delete`)).statusCode, 403);
    assert.equal((await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${submissionId}`, headers: bearer(ownerKey) })).statusCode, 200);
  });
});
