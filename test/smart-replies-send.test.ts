// Smart replies that reach the submitter: auto mode emails exactly one reply through a real SMTP
// server (parsed with mailparser), retries a transient refusal and records a permanent one; draft
// mode lets the owner edit, send once and regenerate; webhooks carry the reply fields.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, submit, submitAndSettle, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { CANADA, CANADA_ANSWER, createKnowledgeBase, REPLY_SCHEMA, SIGNATURE, UNSURE, UNSURE_ALTERNATIVE, type Replied } from './reply-helpers.ts';
import { startSmtpServer } from './smtp.ts';
import { GATES } from '../src/knowledge/answerability.ts';

const MAIL_FROM = 'Intake <replies@intake.example>';

describe('smart replies that are sent', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let receiver: FakeProvider;
  let t: PipelineApp;
  let key: string;
  let kb: string;
  // busy@ is refused with 451 the first time, gone@ always with 550.
  const refusals = new Map<string, number>();
  before(async () => {
    smtp = await startSmtpServer((address) => {
      if (address.startsWith('gone@')) return 550;
      if (address.startsWith('busy@')) {
        const seen = refusals.get(address) ?? 0;
        refusals.set(address, seen + 1);
        return seen === 0 ? 451 : null;
      }
      return null;
    });
    receiver = await startFakeProvider(() => ({ status: 200, body: {} }));
    t = await startPipelineApp({ INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: MAIL_FROM, INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    key = await t.createKey('owner@shop.example');
    kb = await createKnowledgeBase(t, key);
  });
  after(async () => {
    await t.close();
    await receiver.close();
    await smtp.close();
  });

  const get = async (formId: string, id: string) =>
    (await t.request({ method: 'GET', url: `/api/forms/${formId}/submissions/${id}`, headers: bearer(key) })).json() as Replied;
  const until = (formId: string, id: string, status: string) =>
    waitFor(`reply ${status}`, async () => {
      const s = await get(formId, id);
      return s.reply_status === status ? s : undefined;
    });
  const mailsTo = (address: string) => smtp.received.filter((m) => m.recipients.includes(address));

  it('auto mode emails one reply: From the form, Reply-To the owner, text and HTML, Auto-Submitted', async () => {
    const form = await createForm(t, key, { name: 'Shop contact', fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb });
    const id = await submit(t, form.endpoint, { name: 'Ada', email: 'ada@example.com', message: CANADA });
    const s = await until(form.id, id, 'sent');
    assert.ok(s.replied_at && !Number.isNaN(Date.parse(s.replied_at)));
    await sleep(200); // nothing more arrives
    const mails = mailsTo('ada@example.com');
    assert.equal(mails.length, 1);
    const { mail } = mails[0]!;
    assert.equal(mail.subject, 'Re: Shop contact');
    assert.deepEqual(mail.from?.value, [{ name: 'Shop contact', address: 'replies@intake.example' }]);
    assert.equal(mail.replyTo?.value[0]?.address, 'owner@shop.example');
    assert.equal(mail.headers.get('auto-submitted'), 'auto-replied');
    assert.match(mail.text ?? '', /^Hello Ada,/);
    assert.ok((mail.text ?? '').includes(CANADA_ANSWER));
    assert.ok((mail.text ?? '').includes(SIGNATURE));
    assert.ok(String(mail.html).includes(CANADA_ANSWER));
    assert.match(String(mail.messageId), new RegExp(`reply\\.${id}@intake\\.example`));
  });

  it('sends to reply_email_field, and Reply-To the account setting', async () => {
    const patched = await t.request({ method: 'PATCH', url: '/api/account', headers: bearer(key), payload: { reply_to_email: 'support@shop.example' } });
    assert.equal(patched.json().reply_to_email, 'support@shop.example');
    const bad = await t.request({ method: 'PATCH', url: '/api/account', headers: bearer(key), payload: { reply_to_email: 'not an address' } });
    assert.equal(bad.statusCode, 400);
    assert.ok(bad.json().error.details.reply_to_email);
    const schema = { fields: [{ name: 'work_email', type: 'email' }, { name: 'private_email', type: 'email' }, { name: 'message', type: 'string' }] };
    const form = await createForm(t, key, { fields_schema: schema, reply_email_field: 'private_email', smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb });
    const id = await submit(t, form.endpoint, { work_email: 'w@example.com', private_email: 'p@example.com', message: CANADA });
    await until(form.id, id, 'sent');
    assert.equal(mailsTo('w@example.com').length, 0);
    assert.equal(mailsTo('p@example.com').length, 1);
    assert.equal(mailsTo('p@example.com')[0]!.mail.replyTo?.value[0]?.address, 'support@shop.example');
    await t.request({ method: 'PATCH', url: '/api/account', headers: bearer(key), payload: { reply_to_email: null } });
  });

  it('keeps the draft when the submission has no address', async () => {
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb });
    const id = await submit(t, form.endpoint, { message: CANADA });
    const s = await waitFor('a reason', async () => {
      const current = await get(form.id, id);
      return current.reply_reason ? current : undefined;
    });
    assert.equal(s.reply_status, 'completed');
    assert.match(s.reply_reason ?? '', /^no_recipient/);
  });

  it('auto mode holds a draft made under the draft gate but not the auto gate, with its confidence and the next-best passage; the owner sends it', async () => {
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb });
    const unsure = await submit(t, form.endpoint, { email: 'unsure@example.com', message: UNSURE });
    const held = await waitFor('the held draft', async () => {
      const current = await get(form.id, unsure);
      return current.processing_status === 'completed' ? current : undefined;
    });
    assert.equal(held.reply_status, 'completed');
    assert.match(held.reply_reason ?? '', /^held_for_review: /);
    // Between the draft gate and the medium level (answerability.ts): low.
    assert.equal(held.reply_confidence?.level, 'low');
    assert.ok(held.reply_confidence!.score < GATES.medium.minConfidence && held.reply_confidence!.score >= GATES.draft.minConfidence);
    assert.equal(held.reply_confidence?.alternative?.sentence, UNSURE_ALTERNATIVE);
    // A sure reply submitted after it is sent; the held one never is.
    const sure = await submit(t, form.endpoint, { email: 'sure@example.com', message: CANADA });
    const sent = await until(form.id, sure, 'sent');
    assert.equal(sent.reply_confidence?.level, 'high');
    assert.equal(sent.reply_confidence?.alternative, null);
    assert.equal(mailsTo('unsure@example.com').length, 0);
    assert.equal((await get(form.id, unsure)).reply_status, 'completed');
    // A person decides: sent on request.
    const url = `/api/forms/${form.id}/submissions/${unsure}`;
    assert.equal((await t.request({ method: 'POST', url: `${url}/reply`, headers: bearer(key) })).statusCode, 200);
    assert.equal(mailsTo('unsure@example.com').length, 1);
  });

  it('retries a transient refusal and records a permanent one', async () => {
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb });
    const busy = await submit(t, form.endpoint, { email: 'busy@example.com', message: CANADA });
    const gone = await submit(t, form.endpoint, { email: 'gone@example.com', message: CANADA });
    await until(form.id, busy, 'sent');
    assert.equal(refusals.get('busy@example.com'), 2);
    assert.equal(mailsTo('busy@example.com').length, 1);
    const failed = await until(form.id, gone, 'failed');
    assert.match(failed.reply_reason ?? '', /^send_failed: SMTP: .*550/);
    assert.equal(mailsTo('gone@example.com').length, 0);
  });

  it('draft mode: the owner edits, sends once, and cannot change or regenerate what was sent', async () => {
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb });
    const settled = await submitAndSettle(t, key, form, { name: 'Grace', email: 'grace@example.com', message: CANADA }) as unknown as Replied & { id: string };
    assert.equal(settled.reply_status, 'completed');
    await sleep(100);
    assert.equal(mailsTo('grace@example.com').length, 0, 'a draft is not sent by itself');
    const url = `/api/forms/${form.id}/submissions/${settled.id}`;

    const edited = await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { reply_subject: 'Shipping to Canada', reply_content: 'Dear Grace,\n\nYes, we do. 5 to 8 days.\n\nThe Shop' } });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().reply_subject, 'Shipping to Canada');
    const badSubject = await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { reply_subject: 'a\r\nBcc: x@example.com' } });
    assert.equal(badSubject.statusCode, 422);
    assert.equal((await t.request({ method: 'PATCH', url, headers: bearer(key), payload: {} })).statusCode, 422);

    const sent = await t.request({ method: 'POST', url: `${url}/reply`, headers: bearer(key) });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().reply_status, 'sent');
    assert.ok(sent.json().replied_at);
    const mails = mailsTo('grace@example.com');
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.mail.subject, 'Shipping to Canada');
    assert.equal(mails[0]!.mail.text, 'Dear Grace,\n\nYes, we do. 5 to 8 days.\n\nThe Shop\n');

    for (const request of [
      { method: 'POST' as const, url: `${url}/reply` },
      { method: 'POST' as const, url: `${url}/reply/regenerate` },
      { method: 'PATCH' as const, url, payload: { reply_content: 'changed' } },
    ]) {
      const response = await t.request({ ...request, headers: bearer(key) });
      assert.equal(response.statusCode, 422, `${request.method} ${request.url}`);
      assert.match(response.json().error.message, /sent/);
    }
    assert.equal(mailsTo('grace@example.com').length, 1);
  });

  it('two sends at once email one reply', async () => {
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb });
    const s = await submitAndSettle(t, key, form, { email: 'twice@example.com', message: CANADA });
    const url = `/api/forms/${form.id}/submissions/${s.id}/reply`;
    const answers = await Promise.all([1, 2, 3].map(() => t.request({ method: 'POST', url, headers: bearer(key) })));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 422, 422]);
    assert.equal(mailsTo('twice@example.com').length, 1);
  });

  it('regenerate makes a new draft from the knowledge base as it is now', async () => {
    const own = await createKnowledgeBase(t, key, 'Q: Do you ship to Canada?\nA: Yes, within a week.');
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: own });
    const s = await submitAndSettle(t, key, form, { email: 'r@example.com', message: CANADA });
    const url = `/api/forms/${form.id}/submissions/${s.id}`;
    await t.request({ method: 'PATCH', url, headers: bearer(key), payload: { reply_content: 'my own words' } });
    await t.request({ method: 'PUT', url: `/api/knowledge_bases/${own}`, headers: bearer(key), payload: { content: 'Q: Do you ship to Canada?\nA: Yes, within three days now.' } });
    const regenerated = await t.request({ method: 'POST', url: `${url}/reply/regenerate`, headers: bearer(key) });
    assert.equal(regenerated.statusCode, 200, regenerated.body);
    assert.equal(regenerated.json().reply_status, 'completed');
    assert.match(regenerated.json().reply_content, /within three days now/);

    const spam = await submitAndSettle(t, key, form, { email: 's@example.com', message: CANADA, website: 'x' });
    const refused = await t.request({ method: 'POST', url: `/api/forms/${form.id}/submissions/${spam.id}/reply/regenerate`, headers: bearer(key) });
    assert.equal(refused.statusCode, 422);
    const other = await t.createKey();
    assert.equal((await t.request({ method: 'POST', url: `${url}/reply`, headers: bearer(other) })).statusCode, 404);
  });

  it('webhooks carry the reply fields', async () => {
    const form = await createForm(t, key, { fields_schema: REPLY_SCHEMA, smart_reply_enabled: true, knowledge_base_id: kb });
    const destination = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'webhook', url: `${receiver.url}/hook` } });
    assert.equal(destination.statusCode, 201, destination.body);
    const id = await submit(t, form.endpoint, { email: 'w@example.com', message: CANADA });
    const request = await waitFor('the webhook', () => receiver.requests.find((r) => (r.body as { data?: { submission?: { id: string } } }).data?.submission?.id === id));
    const submission = (request.body as { data: { submission: Record<string, unknown> } }).data.submission;
    assert.equal(submission.reply_status, 'completed');
    assert.equal(submission.reply_subject, 'Re: Contact');
    assert.ok(String(submission.reply_content).includes(CANADA_ANSWER));
    assert.ok('reply_reason' in submission && 'replied_at' in submission);
  });
});
