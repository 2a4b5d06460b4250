import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import type { AddressObject } from 'mailparser';
import type { SubmissionEvent } from '../src/delivery/event.ts';
import type { Submission } from '../src/submissions/store.ts';
import type { FieldDefinition } from '../src/forms/field-schema.ts';
import { MailError, createMailer, notificationEmail, ownerAlertEmail } from '../src/delivery/email.ts';
import { startSmtpServer } from './smtp.ts';

const LINK = 'https://intake.example/forms/frm_1/submissions/sub_1';
const FROM = 'Intake <notifications@intake.example>';

const FIELDS: FieldDefinition[] = [
  { name: 'name', type: 'string', required: true, rules: [] },
  { name: 'work_email', type: 'email', required: false, rules: [] },
  { name: 'email', type: 'email', required: true, rules: [] },
  { name: 'message', type: 'string', required: false, rules: [] },
];

function submissionEvent(overrides: Partial<Submission> = {}, formName = 'Contact'): SubmissionEvent {
  const submission = {
    id: 'sub_1',
    data: { name: 'Ada', email: 'ada@example.com', message: '<script>alert(1)</script>\nsecond line' },
    created_at: '2025-01-02T03:04:05.000Z',
    processing_status: 'processed',
    processing_reason: null,
    spam_flag: false,
    spam_confidence: null,
    spam_reason: null,
    original_language: null,
    translated_data: null,
    reply_status: 'none',
    reply_content: null,
    reply_reason: null,
    replied_at: null,
    metadata: { ip: '203.0.113.1', user_agent: null, referer: null, origin: null, utm: {} },
    ...overrides,
  } as Submission;
  return {
    id: 'evt_1',
    type: 'submission.created',
    created_at: '2025-01-02T03:04:06.000Z',
    data: { form: { id: 'frm_1', name: formName, slug: 'contact', visibility: 'public', version: 1 }, submission },
  };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function addresses(header: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(header) ? header : header ? [header] : []).flatMap((object) => object.value.map((entry) => entry.address ?? ''));
}

async function sendFailure(promise: Promise<unknown>): Promise<MailError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof MailError, `expected a MailError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the send to fail');
}

describe('notificationEmail', () => {
  it('names the form in the subject and the first filled email field as Reply-To', () => {
    const mail = notificationEmail(submissionEvent(), FIELDS, LINK);
    assert.equal(mail.subject, 'New submission to Contact');
    // work_email comes first in the schema but has no value.
    assert.equal(mail.replyTo, 'ada@example.com');
    const withWork = notificationEmail(submissionEvent({ data: { email: 'ada@example.com', work_email: 'ada@work.example' } }), FIELDS, LINK);
    assert.equal(withWork.replyTo, 'ada@work.example');
  });

  it('has no Reply-To without a usable address', () => {
    assert.equal(notificationEmail(submissionEvent({ data: { name: 'Ada' } }), FIELDS, LINK).replyTo, undefined);
    assert.equal(notificationEmail(submissionEvent({ data: { email: 'a@x.example, b@y.example' } }), FIELDS, LINK).replyTo, undefined);
    assert.equal(notificationEmail(submissionEvent(), [], LINK).replyTo, undefined);
    assert.equal('replyTo' in notificationEmail(submissionEvent({ data: { name: 'Ada' } }), FIELDS, LINK), false);
  });

  it('lists the fields as text and as escaped HTML, with the link', () => {
    const mail = notificationEmail(submissionEvent(), FIELDS, LINK);
    assert.match(mail.text, /^New submission to Contact\n\nname: Ada\nemail: ada@example\.com\nmessage: <script>alert\(1\)<\/script>\n  second line\n\n/);
    assert.match(mail.text, new RegExp(`View submission: ${LINK}\n$`));
    assert.ok(mail.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;\nsecond line'));
    assert.ok(!mail.html.includes('<script>'));
    assert.ok(mail.html.includes(`<a href="${LINK}">`));
  });

  it('marks spam in the subject and gives the reason, escaped', () => {
    const mail = notificationEmail(submissionEvent({ spam_flag: true, spam_reason: 'Links to <b>casino</b>' }), FIELDS, LINK);
    assert.equal(mail.subject, '[Spam] New submission to Contact');
    assert.ok(mail.text.includes('Flagged as spam: Links to <b>casino</b>'));
    assert.ok(mail.html.includes('Flagged as spam: Links to &lt;b&gt;casino&lt;/b&gt;'));
  });

  it('marks a quarantined file in the subject and names it, escaped', () => {
    const mail = notificationEmail(submissionEvent({ processing_reason: 'file_quarantined: Eicar-Signature in cv (<b>x</b>.txt)' }), FIELDS, LINK);
    assert.equal(mail.subject, '[Malware] New submission to Contact');
    assert.ok(mail.text.includes('\n\nfile_quarantined: Eicar-Signature in cv (<b>x</b>.txt)\n\n'));
    assert.ok(mail.html.includes('file_quarantined: Eicar-Signature in cv (&lt;b&gt;x&lt;/b&gt;.txt)'));
    assert.equal(notificationEmail(submissionEvent({ processing_reason: 'translation_not_configured' }), FIELDS, LINK).subject, 'New submission to Contact');
  });

  it('adds the detected language and the translation', () => {
    const mail = notificationEmail(submissionEvent({
      data: { message: 'Hallo <Welt>' }, original_language: 'de', translated_data: { message: 'Hello <world>' },
    }), FIELDS, LINK);
    assert.ok(mail.text.includes('Translation (from de):\nmessage: Hello <world>'));
    assert.ok(mail.text.includes('Language: de'));
    assert.ok(mail.html.includes('<h3>Translation (from de)</h3>'));
    assert.ok(mail.html.includes('Hello &lt;world&gt;'));
  });

  it('keeps the subject on one line whatever the form is called', () => {
    const mail = notificationEmail(submissionEvent({}, 'Evil\r\nBcc: victim@example.com'), FIELDS, LINK);
    assert.equal(mail.subject, 'New submission to Evil Bcc: victim@example.com');
  });
});

describe('ownerAlertEmail', () => {
  it('names the form, the destination and the last error, escaped in HTML', () => {
    const mail = ownerAlertEmail({ formName: 'Contact', destinationName: 'Team <Slack>', lastError: 'HTTP 404: <html>no_service</html>', link: 'https://intake.example/forms/frm_1/destinations' });
    assert.equal(mail.subject, 'Delivery to Team <Slack> was turned off for Contact');
    assert.ok(mail.text.includes('"Contact"') && mail.text.includes('"Team <Slack>"'));
    assert.ok(mail.text.includes('Last error: HTTP 404: <html>no_service</html>'));
    assert.ok(mail.text.includes('https://intake.example/forms/frm_1/destinations'));
    assert.ok(mail.html.includes('HTTP 404: &lt;html&gt;no_service&lt;/html&gt;'));
    assert.ok(mail.html.includes('&quot;Team &lt;Slack&gt;&quot;'));
    assert.ok(!mail.html.includes('<html>no_service'));
  });
});

describe('createMailer against a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  before(async () => {
    smtp = await startSmtpServer((address) => (address.startsWith('nobody@') ? 550 : address.startsWith('busy@') ? 450 : null));
  });
  after(() => smtp.close());

  it('delivers a notification with its headers and both bodies intact', async () => {
    const mailer = createMailer({ url: smtp.url, from: FROM });
    try {
      const rendered = notificationEmail(submissionEvent({}, 'Contact – Ünïcode'), FIELDS, LINK);
      const sent = await mailer.send({ to: ['owner@intake.example', 'team@intake.example'], ...rendered });
      assert.deepEqual(sent.accepted, ['owner@intake.example', 'team@intake.example']);
      assert.deepEqual(sent.rejected, []);
      assert.match(sent.messageId, /^<.+@.+>$/);

      const arrived = smtp.received.at(-1)!;
      const { mail } = arrived;
      assert.deepEqual(arrived.recipients, ['owner@intake.example', 'team@intake.example']);
      assert.equal(mail.messageId, sent.messageId);
      assert.deepEqual(addresses(mail.from), ['notifications@intake.example']);
      assert.equal(mail.from?.value[0]?.name, 'Intake');
      assert.deepEqual(addresses(mail.to), ['owner@intake.example', 'team@intake.example']);
      assert.equal(mail.subject, 'New submission to Contact – Ünïcode');
      assert.deepEqual(addresses(mail.replyTo), ['ada@example.com']);
      assert.equal(mail.headers.get('auto-submitted'), 'auto-generated');
      assert.equal(mail.text, rendered.text);
      assert.equal(typeof mail.html, 'string');
      assert.ok((mail.html as string).includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.ok(!(mail.html as string).includes('<script>'));
    } finally {
      mailer.close();
    }
  });

  it('sends without Reply-To when there is none', async () => {
    const mailer = createMailer({ url: smtp.url, from: FROM });
    try {
      await mailer.send({ to: ['owner@intake.example'], ...ownerAlertEmail({ formName: 'Contact', destinationName: 'Slack', lastError: 'HTTP 410', link: LINK }) });
      const { mail } = smtp.received.at(-1)!;
      assert.equal(mail.replyTo, undefined);
      assert.equal(mail.subject, 'Delivery to Slack was turned off for Contact');
    } finally {
      mailer.close();
    }
  });

  it('reports the recipients the server refused while it took the others', async () => {
    const mailer = createMailer({ url: smtp.url, from: FROM });
    try {
      const sent = await mailer.send({ to: ['owner@intake.example', 'nobody@intake.example'], subject: 's', text: 't', html: '<p>t</p>' });
      assert.deepEqual(sent.accepted, ['owner@intake.example']);
      assert.deepEqual(sent.rejected, ['nobody@intake.example']);
      assert.deepEqual(smtp.received.at(-1)!.recipients, ['owner@intake.example']);
    } finally {
      mailer.close();
    }
  });

  it('fails for good when the server refuses the only recipient with 550', async () => {
    const mailer = createMailer({ url: smtp.url, from: FROM });
    const count = smtp.received.length;
    try {
      const error = await sendFailure(mailer.send({ to: ['nobody@intake.example'], subject: 's', text: 't', html: '<p>t</p>' }));
      assert.equal(error.transient, false);
      assert.equal(error.responseCode, 550);
      assert.match(error.message, /No such mailbox/);
      assert.equal(smtp.received.length, count);
    } finally {
      mailer.close();
    }
  });

  it('fails for now when the server answers 450', async () => {
    const mailer = createMailer({ url: smtp.url, from: FROM });
    try {
      const error = await sendFailure(mailer.send({ to: ['busy@intake.example'], subject: 's', text: 't', html: '<p>t</p>' }));
      assert.equal(error.transient, true);
      assert.equal(error.responseCode, 450);
    } finally {
      mailer.close();
    }
  });

  it('fails for good without recipients', async () => {
    const mailer = createMailer({ url: smtp.url, from: FROM });
    try {
      const error = await sendFailure(mailer.send({ to: [], subject: 's', text: 't', html: '<p>t</p>' }));
      assert.equal(error.transient, false);
    } finally {
      mailer.close();
    }
  });
});

describe('createMailer without a server', () => {
  it('fails for now when nothing answers', async () => {
    const mailer = createMailer({ url: `smtp://127.0.0.1:${await closedPort()}`, from: FROM });
    try {
      const error = await sendFailure(mailer.send({ to: ['owner@intake.example'], subject: 's', text: 't', html: '<p>t</p>' }));
      assert.equal(error.transient, true);
      assert.equal(error.responseCode, null);
    } finally {
      mailer.close();
    }
  });
});
