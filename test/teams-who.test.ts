// Teams (issue 39), who did it: two members of one workspace triage and reply, through real HTTP
// (REST with their keys, MCP, the dashboard with their sessions), and each submission says which
// member marked it read, done, spam or not spam, and edited and sent its reply: in the API, over
// MCP and on the dashboard's submission page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DashboardClient } from './dashboard-helpers.ts';
import { overHttp } from './http-inject.ts';
import { bearer, createForm, type TestApp } from './helpers.ts';
import { callOk, startMcpApp, type McpApp } from './mcp-helpers.ts';
import { startSmtpServer } from './smtp.ts';
import { storeProcessed } from './triage-helpers.ts';

const PASSWORD = 'correct horse battery';
const OWNER = 'owner@who.example';
const EDITOR = 'editor@who.example';

describe('teams: who did it', () => {
  let t: McpApp;
  let http: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let ownerKey: string;
  let editorKey: string;
  let editor: DashboardClient;
  let formId: string;

  before(async () => {
    smtp = await startSmtpServer();
    t = await startMcpApp({ INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'Intake <intake@who.example>', INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    http = { ...t, request: overHttp(new URL(t.url).origin) };
    ownerKey = await t.createKey(OWNER);
    const invited = await http.request({ method: 'POST', url: '/api/members', headers: bearer(ownerKey), payload: { email: EDITOR, role: 'editor' } });
    assert.equal(invited.statusCode, 201, invited.body);
    const link = new URL(invited.json().invite_url);
    editor = new DashboardClient(http);
    assert.equal((await editor.get(link.pathname + link.search)).statusCode, 200);
    const accepted = await editor.post('/invite', { token: link.searchParams.get('token')!, password: PASSWORD });
    assert.equal(accepted.statusCode, 303, accepted.body.slice(0, 500));
    const person = await t.services.accounts.find(EDITOR);
    editorKey = (await t.services.accounts.createKey({ email: OWNER, name: 'editor key', scope: 'full', personId: person!.id })).key;
    formId = (await createForm(http, ownerKey)).id;
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  const get = async (id: string) => {
    const response = await http.request({ method: 'GET', url: `/api/forms/${formId}/submissions/${id}`, headers: bearer(ownerKey) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const patch = async (key: string, id: string, payload: Record<string, unknown>) => {
    const response = await http.request({ method: 'PATCH', url: `/api/forms/${formId}/submissions/${id}`, headers: bearer(key), payload });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  it('REST: each mark and the reply name the member whose key made them; a later mark by the other member names them instead', async () => {
    const [id] = await storeProcessed(t, formId, 1, () => ({ name: 'Ann', email: 'ann@customer.example', message: 'Hello' }));
    const fresh = await get(id!);
    assert.deepEqual([fresh.read_by, fresh.done_by, fresh.spam_marked_by, fresh.reply_edited_by, fresh.reply_sent_by], [null, null, null, null, null]);

    let s = await patch(editorKey, id!, { read: true, done: true, spam_flag: true });
    assert.deepEqual([s.read_by, s.done_by, s.spam_marked_by], [EDITOR, EDITOR, EDITOR]);
    s = await patch(ownerKey, id!, { spam_flag: false, done: false });
    assert.deepEqual([s.read_by, s.done_by, s.spam_marked_by], [EDITOR, OWNER, OWNER]);
    s = await patch(editorKey, id!, { read: false });
    assert.equal(s.read_by, null, 'unread: nobody has read it');

    s = await patch(editorKey, id!, { reply_content: 'Thanks, Ann.' });
    assert.deepEqual([s.reply_edited_by, s.reply_sent_by], [EDITOR, null]);
    const sent = await http.request({ method: 'POST', url: `/api/forms/${formId}/submissions/${id}/reply`, headers: bearer(ownerKey) });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().reply_status, 'sent');
    assert.deepEqual([sent.json().reply_edited_by, sent.json().reply_sent_by], [EDITOR, OWNER]);
    assert.ok(smtp.received.some((m) => m.recipients.includes('ann@customer.example')), 'the reply reached the real SMTP server');

    // The listing presents the same fields.
    const listed = await http.request({ method: 'GET', url: `/api/forms/${formId}/submissions`, headers: bearer(editorKey) });
    const row = (listed.json().data as Array<Record<string, unknown>>).find((r) => r.id === id);
    assert.equal(row?.reply_sent_by, OWNER);
  });

  it('bulk and MCP marks name the member', async () => {
    const ids = await storeProcessed(t, formId, 2, (i) => ({ name: `B${i}`, email: `b${i}@customer.example` }));
    const bulk = await http.request({ method: 'POST', url: `/api/forms/${formId}/submissions/bulk`, headers: bearer(editorKey), payload: { action: 'done', ids } });
    assert.equal(bulk.statusCode, 200, bulk.body);
    for (const id of ids) assert.equal((await get(id)).done_by, EDITOR);

    const client = await t.connect(ownerKey);
    await callOk(client, 'mark_spam', { form_id: formId, submission_ids: [ids[0]] });
    await callOk(client, 'mark_read', { form_id: formId, submission_ids: [ids[0]] });
    const agent = await callOk(client, 'get_submission', { form_id: formId, submission_id: ids[0] });
    assert.deepEqual([agent.spam_marked_by, agent.read_by, agent.done_by], [OWNER, OWNER, EDITOR]);
  });

  it('dashboard: opening, marking and replying record the session\'s member, and the submission page names them', async () => {
    const [id] = await storeProcessed(t, formId, 1, () => ({ name: 'Cy', email: 'cy@customer.example', message: 'Hi' }));
    const page = `/forms/${formId}/submissions/${id}`;
    const opened = await editor.get(page);
    assert.equal(opened.statusCode, 200, opened.body.slice(0, 300));
    assert.equal((await get(id!)).read_by, EDITOR, 'opening it is reading it, by this member');

    assert.equal((await editor.post(`${page}/done`, { done: 'true' })).statusCode, 303);
    assert.equal((await editor.post(`${page}/spam`, { spam: 'true' })).statusCode, 303);
    assert.equal((await editor.post(`${page}/spam`, { spam: 'false' })).statusCode, 303);
    assert.equal((await editor.post(`${page}/reply`, { reply_subject: 'Re: hi', reply_content: 'Hello Cy.' })).statusCode, 303);
    assert.equal((await editor.post(`${page}/reply/send`)).statusCode, 303);
    const s = await get(id!);
    assert.deepEqual([s.read_by, s.done_by, s.spam_marked_by, s.reply_edited_by, s.reply_sent_by], [EDITOR, EDITOR, EDITOR, EDITOR, EDITOR]);

    await patch(ownerKey, id!, { done: false });
    const shown = (await editor.get(page)).body;
    const dd = (name: string) => new RegExp(`<dd id="${name}">([^<]*)</dd>`).exec(shown)?.[1];
    assert.equal(dd('who-read'), EDITOR);
    assert.equal(dd('who-done'), OWNER);
    assert.match(shown, /Marked not done by/);
    assert.equal(dd('who-spam'), EDITOR);
    assert.equal(dd('who-reply-edited'), EDITOR);
    assert.equal(dd('who-reply-sent'), EDITOR);
  });
});
