// Teams (issue 39), notifications to members: an email destination with recipients_role notifies
// every active member with that role or above, looked up when each message is sent, through the
// real SMTP server and real HTTP; set through the REST API, MCP and the dashboard.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from './dashboard-helpers.ts';
import { bearer, createForm, type TestApp } from './helpers.ts';
import { overHttp } from './http-inject.ts';
import { callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { submit, waitFor } from './pipeline-helpers.ts';
import { startSmtpServer } from './smtp.ts';

const PASSWORD = 'correct horse battery';
const OWNER = 'owner@notify.example';

describe('teams: email destinations to members by role', () => {
  let t: McpApp;
  let http: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let ownerKey: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  const members = new Map<string, { id: string; client: DashboardClient }>();

  async function join(email: string, role: string) {
    const invited = await http.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email, role } });
    assert.equal(invited.statusCode, 201, invited.body);
    const link = new URL(invited.json().invite_url);
    const client = new DashboardClient(http);
    assert.equal((await client.get(link.pathname + link.search)).statusCode, 200);
    assert.equal((await client.post('/invite', { token: link.searchParams.get('token')!, password: PASSWORD })).statusCode, 303);
    members.set(email, { id: invited.json().member.id, client });
  }

  /** The recipients of the one message about a new submission, once it arrives. */
  async function notified(): Promise<string[]> {
    const before = smtp.received.length;
    await submit(http, form.endpoint, { name: 'Ann', email: 'ann@customer.example', message: 'Hello' });
    const mail = await waitFor('the notification', async () => smtp.received.slice(before).find((m) => !m.recipients.includes('ann@customer.example')));
    return [...mail.recipients].sort();
  }

  before(async () => {
    smtp = await startSmtpServer();
    t = await startMcpApp({ INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'Intake <intake@notify.example>' }, { pipeline: true });
    http = { ...t, request: overHttp(new URL(t.url).origin) };
    ownerKey = await t.createKey(OWNER);
    await join('editor@notify.example', 'editor');
    await join('viewer@notify.example', 'viewer');
    form = await createForm(http, ownerKey);
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('REST: recipients_role editor alone notifies editors and owners, not viewers, and follows members who join and leave', async () => {
    const created = await http.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(ownerKey), payload: { type: 'email', recipients_role: 'editor' } });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.json().recipients_role, 'editor');
    assert.deepEqual(created.json().recipients, []);
    assert.deepEqual(await notified(), ['editor@notify.example', OWNER]);

    // Resolved at send time: a new admin is notified, a removed editor no longer is.
    await join('admin@notify.example', 'admin');
    const removed = await http.request({ method: 'DELETE', url: `/api/members/${members.get('editor@notify.example')!.id}`, headers: bearer(ownerKey) });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual(await notified(), ['admin@notify.example', OWNER]);

    // Fixed addresses beside the role; without either, refused.
    const id = created.json().id;
    const both = await http.request({ method: 'PATCH', url: `/api/forms/${form.id}/destinations/${id}`, headers: bearer(ownerKey), payload: { recipients: ['desk@notify.example'], recipients_role: 'owner' } });
    assert.equal(both.statusCode, 200, both.body);
    assert.deepEqual(await notified(), ['desk@notify.example', OWNER]);
    const none = await http.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(ownerKey), payload: { type: 'email' } });
    assert.ok(none.statusCode === 400 || none.statusCode === 422, none.body);
    assert.match(none.body, /recipients/);
    const bad = await http.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(ownerKey), payload: { type: 'email', recipients_role: 'boss' } });
    assert.ok(bad.statusCode === 400 || bad.statusCode === 422, bad.body);
    assert.match(bad.body, /recipients_role/);
    const off = await http.request({ method: 'PATCH', url: `/api/forms/${form.id}/destinations/${id}`, headers: bearer(ownerKey), payload: { recipients_role: null } });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().recipients_role, undefined);
    const deleted = await http.request({ method: 'DELETE', url: `/api/forms/${form.id}/destinations/${id}`, headers: bearer(ownerKey) });
    assert.ok(deleted.statusCode < 300, deleted.body);
  });

  it('MCP and the dashboard set it too', async () => {
    const client = await t.connect(ownerKey);
    const made = await callOk(client, 'create_destination', { form_id: form.id, type: 'email', recipients_role: 'admin' });
    assert.equal(made.recipients_role ?? made.destination?.recipients_role, 'admin');

    const admin = members.get('admin@notify.example')!.client;
    assert.equal((await admin.get(`/forms/${form.id}/notifications`)).statusCode, 200);
    assert.match(admin.last!.body, /name="recipients_role"/);
    const posted = await admin.post(`/forms/${form.id}/notifications`, { type: 'email', name: 'Team', recipients: '', recipients_role: 'viewer' });
    assert.ok(posted.statusCode === 303 || posted.statusCode === 200, posted.body.slice(0, 300));
    const listed = await http.request({ method: 'GET', url: `/api/forms/${form.id}/destinations`, headers: bearer(ownerKey) });
    const roles = (listed.json().destinations as Array<{ name: string; recipients_role?: string }>).map((d) => [d.name, d.recipients_role]);
    assert.ok(roles.some(([name, role]) => name === 'Team' && role === 'viewer'), JSON.stringify(roles));
    const disabled = await http.request({ method: 'PATCH', url: `/api/forms/${form.id}/destinations/${made.id ?? made.destination?.id}`, headers: bearer(ownerKey), payload: { enabled: false } });
    assert.equal(disabled.statusCode, 200, disabled.body);

    // Both: the admin-and-above one is disabled now; the everyone one reaches the viewer too.
    assert.deepEqual(await notified(), ['admin@notify.example', OWNER, 'viewer@notify.example'].sort());
  });
});
