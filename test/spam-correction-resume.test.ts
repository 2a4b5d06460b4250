// Marking a spam submission as not spam runs what spam made the pipeline skip: translation, the
// smart reply (sent, in auto mode) and the notifications held back, each once; marking it spam again,
// and not spam again, changes nothing that already happened.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, settled, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { createKnowledgeBase, REPLY_SCHEMA, type Replied } from './reply-helpers.ts';
import { startSmtpServer } from './smtp.ts';

describe('spam corrections resume the pipeline', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let services: FakeProvider;
  let t: PipelineApp;
  let key: string;
  before(async () => {
    smtp = await startSmtpServer();
    // One local server plays the webhook receivers and LibreTranslate.
    services = await startFakeProvider((request) => {
      if (request.path === '/translate') {
        const body = request.body as { q: string[]; target: string };
        // German in, the English question out; anything else is marked.
        return { body: { translatedText: body.q.map((text) => (text.includes('Kanada') ? 'Do you ship to Canada? How long does it take?' : `[${body.target}] ${text}`)) } };
      }
      return { status: 200, body: {} };
    });
    t = await startPipelineApp({
      INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'replies@intake.example', INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_TRANSLATE_URL: services.url,
    });
    key = await t.createKey();
  });
  after(async () => {
    await t.close();
    await services.close();
    await smtp.close();
  });

  it('runs the skipped translation, reply and deliveries once, and no more on later corrections', async () => {
    const kb = await createKnowledgeBase(t, key);
    const form = await createForm(t, key, {
      fields_schema: REPLY_SCHEMA, localisation_enabled: true, smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb,
    });
    const api = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object) => t.request({ method, url, headers: bearer(key), ...(payload && { payload }) });
    for (const [path, deliverSpam] of [['/held', false], ['/spam-too', true]] as const) {
      const created = await api('POST', `/api/forms/${form.id}/destinations`, { type: 'webhook', url: `${services.url}${path}`, deliver_spam: deliverSpam });
      assert.equal(created.statusCode, 201, created.body);
    }
    const hooks = (path: string, id: string) => services.requests.filter((r) => r.path === path && (r.body as { data?: { submission?: { id: string } } }).data?.submission?.id === id);
    const translations = () => services.requests.filter((r) => r.path === '/translate').length;
    const creditsUsed = async () => (await api('GET', '/api/account')).json().credits.used as number;

    // A filled honeypot: spam, whatever the settings.
    const id = await submit(t, form.endpoint, { name: 'Ada', email: 'ada@example.com', message: 'Hallo, liefern Sie auch nach Kanada? Wie lange dauert es?', website: 'x' });
    const spam = await settled(t, key, form.id, id) as unknown as Replied & { spam_flag: boolean; translated_data: unknown };
    assert.equal(spam.spam_flag, true);
    assert.equal(spam.translated_data, null);
    assert.equal(spam.reply_reason, 'spam');
    await waitFor('the spam-too webhook', () => (hooks('/spam-too', id).length === 1 ? true : undefined));
    assert.equal(hooks('/held', id).length, 0);
    const creditsBefore = await creditsUsed();

    const corrected = await api('PATCH', `/api/forms/${form.id}/submissions/${id}`, { spam_flag: false });
    assert.equal(corrected.statusCode, 200, corrected.body);
    const resumed = await waitFor('the reply to be sent', async () => {
      const s = (await api('GET', `/api/forms/${form.id}/submissions/${id}`)).json();
      return s.reply_status === 'sent' ? s : undefined;
    });
    assert.equal(resumed.spam_flag, false);
    assert.equal(resumed.processing_status, 'completed');
    assert.equal(resumed.translated_data.message, 'Do you ship to Canada? How long does it take?');
    await waitFor('the held webhook', () => (hooks('/held', id).length === 1 ? true : undefined));
    assert.equal(smtp.received.filter((m) => m.recipients.includes('ada@example.com')).length, 1);
    const translationsDone = translations();
    const creditsAfter = await creditsUsed();
    assert.equal(creditsAfter - creditsBefore, 1 + 2, 'a translation and a reply, charged once each');

    // Spam again, then not spam again: nothing runs twice.
    for (const flag of [true, false]) {
      const response = await api('PATCH', `/api/forms/${form.id}/submissions/${id}`, { spam_flag: flag });
      assert.equal(response.statusCode, 200, response.body);
    }
    await sleep(300);
    assert.equal(hooks('/held', id).length, 1);
    assert.equal(hooks('/spam-too', id).length, 1);
    assert.equal(smtp.received.filter((m) => m.recipients.includes('ada@example.com')).length, 1);
    assert.equal(translations(), translationsDone);
    assert.equal(await creditsUsed(), creditsAfter);
    const final = (await api('GET', `/api/forms/${form.id}/submissions/${id}`)).json();
    assert.equal(final.processing_status, 'completed');
    assert.equal(final.reply_status, 'sent');
  });
});
