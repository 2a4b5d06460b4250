// Knowledge bases and smart replies on the dashboard: hostile knowledge-base text shown inert, a
// form linked through the editor, the delete page naming the forms it switches off, and a reply
// draft edited and sent to a real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, createForm, settled, startPipelineApp, submit, type PipelineApp } from './pipeline-helpers.ts';
import { createKnowledgeBase, REPLY_SCHEMA, UNSURE, UNSURE_ALTERNATIVE, type Replied } from './reply-helpers.ts';
import { startSmtpServer } from './smtp.ts';
import { DashboardClient } from './dashboard-helpers.ts';

const XSS = '<script>alert("kb")</script><img src=x onerror=alert(1)>';
const CONTENT = `Q: What are your opening hours?\nA: We are open from 9 to 5, Monday to Friday. ${XSS}\n\nQ: Do you deliver?\nA: We deliver within 50 km for free.`;

describe('dashboard knowledge bases and replies', () => {
  let t: PipelineApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let owner: DashboardClient;
  let kbId: string;
  let formId: string;

  before(async () => {
    smtp = await startSmtpServer();
    t = await startPipelineApp({ INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'Intake <no-reply@example.com>' });
    owner = new DashboardClient(t);
    await owner.setUp();
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('creates a knowledge base, shows its hostile text inert, and refuses an empty one', async () => {
    await owner.get('/knowledge/new');
    const empty = await owner.post('/knowledge/new', { name: 'Empty', content: '   ', signature: '' });
    assert.equal(empty.statusCode, 422);
    assert.match(empty.body, /must not be empty/);
    const made = await owner.post('/knowledge/new', { name: `FAQ ${XSS}`, content: CONTENT, signature: 'The Garden Shop' });
    assert.equal(made.statusCode, 303);
    kbId = /\/knowledge\/([0-9a-f-]{36})/.exec(String(made.headers.location))?.[1] ?? '';
    for (const url of ['/knowledge', `/knowledge/${kbId}`, `/knowledge/${kbId}/delete`]) {
      const page = await owner.get(url);
      assert.equal(page.statusCode, 200, url);
      assert.doesNotMatch(page.body, /<script>alert|<img src=x/);
      assert.match(page.body, /&lt;script&gt;alert\(&quot;kb&quot;\)/);
    }
    const edited = await owner.post(`/knowledge/${kbId}`, { name: 'Shop FAQ', content: CONTENT, signature: 'The Garden Shop' });
    assert.equal(edited.headers.location, `/knowledge/${kbId}?done=saved`);
  });

  it('links the knowledge base to a form in the editor, then drafts, edits and sends a reply', async () => {
    await owner.get('/forms/new');
    const editor = owner.last?.body ?? '';
    assert.match(editor, new RegExp(`<option value="${kbId}">Shop FAQ</option>`));
    const made = await owner.follow(await owner.post('/forms/new', {
      name: 'Questions', slug: 'questions', visibility: 'public',
      fields_schema: JSON.stringify({ fields: [{ name: 'email', type: 'email', required: true }, { name: 'message', type: 'string', required: true }] }),
      smart_reply_enabled: 'true', smart_replies_mode: 'draft', knowledge_base_id: kbId,
    }));
    assert.match(made.body, /Form created/);
    formId = /\/forms\/([0-9a-f-]{36})/.exec(made.body)?.[1] ?? '';
    const endpoint = /<code id="endpoint">([^<]+)<\/code>/.exec(made.body)?.[1] ?? '';
    const key = await t.createKey('owner@example.com');
    const id = await submit(t, endpoint, { email: 'visitor@example.com', message: 'Hello, what are your opening hours?' });
    await settled(t, key, formId, id);

    const page = await owner.get(`/forms/${formId}/submissions/${id}`);
    assert.match(page.body, /<h2 id="reply-title">Reply<\/h2>/);
    assert.doesNotMatch(page.body, /<script>alert|<img src=x/);
    const edit = await owner.post(`/forms/${formId}/submissions/${id}/reply`, { reply_subject: 'Our hours', reply_content: 'Hello! We are open from 9 to 5. <b>See you</b>' });
    assert.equal(edit.statusCode, 303);
    const saved = await owner.get(String(edit.headers.location));
    assert.match(saved.body, /Draft saved\./);
    assert.match(saved.body, /&lt;b&gt;See you&lt;\/b&gt;/);
    const badSubject = await owner.post(`/forms/${formId}/submissions/${id}/reply`, { reply_subject: 'x'.repeat(300), reply_content: 'text' });
    assert.equal(badSubject.statusCode, 400);
    assert.match(badSubject.body, /reply_subject/);

    const sent = await owner.post(`/forms/${formId}/submissions/${id}/reply/send`);
    assert.equal(sent.statusCode, 303);
    assert.match((await owner.get(String(sent.headers.location))).body, /Reply sent\./);
    const mail = smtp.received.find((m) => m.recipients.includes('visitor@example.com'));
    assert.ok(mail);
    assert.equal(mail.mail.subject, 'Our hours');
    assert.match(mail.mail.text ?? '', /open from 9 to 5/);
    const again = await owner.post(`/forms/${formId}/submissions/${id}/reply/send`);
    assert.equal(again.statusCode, 422, 'sent once');
  });

  it('sets the reply-to address on the account page', async () => {
    await owner.get('/account');
    assert.equal((await owner.post('/account/reply-to', { reply_to_email: 'not an address' })).statusCode, 422);
    assert.equal((await owner.post('/account/reply-to', { reply_to_email: 'Team@Example.com' })).headers.location, '/account?done=reply-to');
    assert.equal((await t.services.accounts.find('owner@example.com'))?.replyToEmail, 'team@example.com');
    await owner.post('/account/reply-to', { reply_to_email: '' });
    assert.equal((await t.services.accounts.find('owner@example.com'))?.replyToEmail, null);
  });

  it('shows how sure a draft is, what it quotes and the next-best passage, whose sentence one click puts in the draft', async () => {
    const key = await t.createKey('owner@example.com');
    const faq = await createKnowledgeBase(t, key);
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: faq });
    const id = await submit(t, form.endpoint, { email: 'unsure@example.com', message: UNSURE });
    await settled(t, key, form.id, id);
    const url = `/forms/${form.id}/submissions/${id}`;
    const page = await owner.get(url);
    assert.match(page.body, /<div class="reply-confidence" id="reply-confidence" data-level="low">/);
    assert.match(page.body, /Confidence<\/span> low: the knowledge base may not answer this <span class="muted">\(score 0\.\d\d\)<\/span>/);
    assert.match(page.body, /Quotes passage 3 \(Can I cancel my subscription\?\): <q>The plan runs until the end of the month you paid for\.<\/q>/);
    assert.match(page.body, new RegExp(`Next-best, passage 2 \\(Do you ship to Canada\\?\\): <q class="reply-alternative">${UNSURE_ALTERNATIVE}</q>`));
    assert.match(page.body, new RegExp(`action="${url}/reply/alternative"`));

    const used = await owner.post(`${url}/reply/alternative`);
    assert.equal(used.headers.location, `${url}?done=reply-alternative`);
    const after = (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions/${id}`, headers: bearer(key) })).json() as Replied;
    assert.ok(after.reply_content?.includes(UNSURE_ALTERNATIVE));
    assert.ok(!after.reply_content?.includes('The plan runs until the end of the month you paid for.'));
    assert.equal(after.reply_confidence?.quoted[0]?.sentence, UNSURE_ALTERNATIVE);
    assert.equal(after.reply_confidence?.alternative?.sentence, 'The plan runs until the end of the month you paid for.', 'one more click puts it back');
    assert.match((await owner.get(String(used.headers.location))).body, /The draft now quotes the other passage\./);
  });

  it('names the forms whose smart replies a deletion switches off, and switches them off', async () => {
    const confirm = await owner.get(`/knowledge/${kbId}/delete`);
    assert.match(confirm.body, /Smart replies will be switched off on this form/);
    assert.match(confirm.body, new RegExp(`<a href="/forms/${formId}">Questions</a>`));
    const deleted = await owner.post(`/knowledge/${kbId}/delete`);
    assert.equal(deleted.headers.location, '/knowledge?done=deleted');
    const account = await t.services.accounts.find('owner@example.com');
    const form = await t.services.forms.get(account!.id, formId);
    assert.equal(form.settings.smart_reply_enabled, false);
    assert.equal((await owner.get(`/knowledge/${kbId}`)).statusCode, 404);
  });
});
