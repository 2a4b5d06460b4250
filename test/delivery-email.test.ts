// Email notifications end to end, against a real SMTP server on 127.0.0.1: an email destination's
// message as it arrives, the clear failure when no SMTP server is configured, and the alert its
// owner gets by email when a failing destination is turned off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressObject } from 'mailparser';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { startSmtpServer } from './smtp.ts';
import { DashboardClient, linksIn, openLink } from './dashboard-helpers.ts';

type Json = Record<string, any>;

const MAIL_FROM = 'Intake <notifications@intake.test>';

function addresses(header: AddressObject | AddressObject[] | undefined): string[] {
  return (Array.isArray(header) ? header : header ? [header] : []).flatMap((object) => object.value.map((entry) => entry.address ?? ''));
}

async function addDestination(t: PipelineApp, key: string, formId: string, body: Json): Promise<Json> {
  const response = await t.request({ method: 'POST', url: `/api/forms/${formId}/destinations`, headers: bearer(key), payload: body });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Json;
}

/** The destination's only delivery once it is no longer pending. */
async function finishedDelivery(t: PipelineApp, key: string, formId: string, destinationId: string): Promise<Json> {
  return waitFor('the delivery to finish', async () => {
    const response = await t.request({ method: 'GET', url: `/api/forms/${formId}/destinations/${destinationId}/deliveries`, headers: bearer(key) });
    assert.equal(response.statusCode, 200, response.body);
    const page = response.json() as { data: Json[]; meta: { total_count: number } };
    assert.ok(page.meta.total_count <= 1, 'one delivery per submission');
    return page.data[0] && page.data[0].status !== 'pending' ? page.data[0] : undefined;
  });
}

/** Every link of this server in a message opens a page of the owner's dashboard that shows `expected`. */
async function assertLinksOpen(t: PipelineApp, ownerEmail: string, message: string, expected: string): Promise<void> {
  const owner = new DashboardClient(t);
  await owner.setUp(ownerEmail);
  const links = linksIn(message, 'http://localhost:');
  assert.ok(links.length > 0, `no link in ${message}`);
  for (const link of links) {
    const page = await openLink(owner, link);
    assert.equal(page.statusCode, 200, `${link} answers ${page.statusCode}`);
    assert.ok(page.body.includes(expected), `${link} does not show ${expected}`);
  }
}

// One app at a time: on PostgreSQL, a second app's fresh job schema would stop the first one's
// workers (graphile-worker's database-wide "worker:migrate" notification).
describe('email destinations with an SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  before(async () => {
    smtp = await startSmtpServer();
  });
  after(async () => {
    await smtp?.close();
  });

  describe('a submission', () => {
    let t: PipelineApp;
    before(async () => {
      t = await startPipelineApp({ INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: MAIL_FROM });
    });
    after(async () => {
      await t?.close();
    });

    it('emails the recipients the submission, with the submitter as Reply-To and values escaped in HTML', async () => {
      const key = await t.createKey('sales-owner@example.com');
      const form = await createForm(t, key, { name: 'Quote requests' });
      const destination = await addDestination(t, key, form.id, { type: 'email', recipients: ['Sales@Example.com', 'boss@example.com'] });
      assert.deepEqual(destination.recipients, ['sales@example.com', 'boss@example.com']);

      const message = 'I want <b>x</b> & "quotes"\nsecond line';
      const submissionId = await submit(t, form.endpoint, { name: 'Grace <Hopper>', email: 'grace@example.org', message });
      const { mail, recipients } = await waitFor('the notification email', () => smtp.received.find((r) => r.mail.subject?.includes('Quote requests')));

      assert.deepEqual(recipients.sort(), ['boss@example.com', 'sales@example.com']);
      assert.deepEqual(addresses(mail.to).sort(), ['boss@example.com', 'sales@example.com']);
      assert.deepEqual(addresses(mail.from), ['notifications@intake.test']);
      assert.equal(mail.subject, 'New submission to Quote requests');
      assert.deepEqual(addresses(mail.replyTo), ['grace@example.org']);

      assert.ok(mail.text?.includes('name: Grace <Hopper>'), mail.text);
      assert.ok(mail.text?.includes('email: grace@example.org'), mail.text);
      assert.ok(mail.text?.includes('message: I want <b>x</b> & "quotes"\n  second line'), mail.text);
      assert.ok(mail.text?.includes(`/submissions/${submissionId}`), 'the text links to the submission');
      await assertLinksOpen(t, 'sales-owner@example.com', `${mail.text}\n${mail.html}`, submissionId);

      assert.equal(typeof mail.html, 'string');
      const html = mail.html as string;
      assert.ok(html.includes('Grace &lt;Hopper&gt;'), html);
      assert.ok(html.includes('grace@example.org'));
      assert.ok(html.includes('I want &lt;b&gt;x&lt;/b&gt; &amp; &quot;quotes&quot;'), html);
      assert.ok(!html.includes('<b>x</b>') && !html.includes('<Hopper>'), 'no submitted markup in the HTML part');

      const delivery = await finishedDelivery(t, key, form.id, destination.id);
      assert.equal(delivery.status, 'succeeded');
      assert.equal(delivery.submission_id, submissionId);
      assert.equal(delivery.attempts, 1);
      assert.equal(smtp.received.filter((r) => r.mail.subject?.includes('Quote requests')).length, 1, 'sent once');
    });
  });

  describe('a test email', () => {
    let t: PipelineApp;
    before(async () => {
      t = await startPipelineApp({ INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: MAIL_FROM });
    });
    after(async () => {
      await t?.close();
    });

    it('marks a test email as a test in its subject and first line, and its link opens the delivery log', async () => {
      const key = await t.createKey('tester@example.com');
      const form = await createForm(t, key, { name: 'Test drive' });
      const destination = await addDestination(t, key, form.id, { type: 'email', name: 'Inbox of sales', recipients: ['sales@example.com'] });
      const sent = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations/${destination.id}/test`, headers: bearer(key) });
      assert.equal(sent.json().delivered, true, sent.body);
      const { mail } = await waitFor('the test email', () => smtp.received.find((r) => r.mail.subject?.includes('Test drive')));
      assert.equal(mail.subject, '[Test] New submission to Test drive');
      assert.match(mail.text?.split('\n')[0] ?? '', /^Test: a sample submission to Test drive$/);
      assert.match(String(mail.html), /<h2>Test: a sample submission to Test drive<\/h2>/);
      assert.match(mail.text ?? '', /Open the delivery log: http:\/\/localhost[^\s]*\/notifications\//);
      await assertLinksOpen(t, 'tester@example.com', `${mail.text}\n${mail.html}`, 'Inbox of sales');
    });
  });

  describe('a destination that keeps failing', () => {
    let alerting: PipelineApp;
    let failing: FakeProvider;
    before(async () => {
      failing = await startFakeProvider(() => ({ status: 500, body: { error: 'down' } }));
      alerting = await startPipelineApp({
        INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: MAIL_FROM, INTAKE_OUTBOUND_ALLOW: '127.0.0.1',
        INTAKE_DELIVERY_DISABLE_AFTER: '2', INTAKE_DELIVERY_RETRY_SCHEDULE: '20ms,40ms,50ms',
      });
    });
    after(async () => {
      await alerting?.close();
      await failing?.close();
    });

    it('is turned off, and its owner is emailed an alert naming it', async () => {
      const key = await alerting.createKey('owner@example.com');
      const form = await createForm(alerting, key, { name: 'Support' });
      const destination = await addDestination(alerting, key, form.id, { type: 'webhook', name: 'Ops receiver', url: `${failing.url}/hook` });
      await submit(alerting, form.endpoint, { name: 'Ada', email: 'ada@example.com', message: 'Hello' });

      const alert = await waitFor('the owner alert', () => smtp.received.find((r) => r.recipients.includes('owner@example.com')));
      assert.deepEqual(alert.recipients, ['owner@example.com']);
      assert.match(alert.mail.subject ?? '', /Ops receiver/);
      assert.match(alert.mail.subject ?? '', /Support/);
      assert.ok(alert.mail.text?.includes('"Ops receiver"'), alert.mail.text);
      assert.ok(alert.mail.text?.includes('answered 500'), 'the alert gives the last error');
      assert.ok(alert.mail.text?.includes(`/notifications/${destination.id}`), 'the alert links to the destination');
      await assertLinksOpen(alerting, 'owner@example.com', `${alert.mail.text}\n${alert.mail.html}`, 'Ops receiver');

      const response = await alerting.request({ method: 'GET', url: `/api/forms/${form.id}/destinations/${destination.id}`, headers: bearer(key) });
      assert.equal(response.statusCode, 200, response.body);
      const current = response.json() as Json;
      assert.equal(current.enabled, false);
      assert.match(String(current.disabled_reason), /2 failed attempts in a row/);
      assert.ok(current.disabled_at);
      assert.equal(failing.requests.length, 2, 'two attempts, then no more');

      const delivery = await finishedDelivery(alerting, key, form.id, destination.id);
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.attempts, 2);
      assert.deepEqual(delivery.log.map((a: Json) => a.status_code), [500, 500]);
      assert.equal(smtp.received.filter((r) => r.recipients.includes('owner@example.com')).length, 1, 'one alert');
    });
  });
});

describe('email destinations without an SMTP server', () => {
  let t: PipelineApp;
  before(async () => {
    t = await startPipelineApp();
  });
  after(async () => {
    await t?.close();
  });

  it('fails the delivery at once, saying INTAKE_SMTP_URL is not set, with no retries', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const destination = await addDestination(t, key, form.id, { type: 'email', recipients: ['team@example.com'] });
    const submissionId = await submit(t, form.endpoint, { name: 'Ada', email: 'ada@example.com', message: 'Hello' });

    const delivery = await finishedDelivery(t, key, form.id, destination.id);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.submission_id, submissionId);
    assert.match(String(delivery.last_error), /INTAKE_SMTP_URL/);
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.next_attempt_at, null, 'no retry is planned');
    assert.equal(delivery.log.length, 1);
    assert.match(String(delivery.log[0].error), /INTAKE_SMTP_URL/);
    assert.ok(t.log.some((line) => line.level === 'error' && line.message === 'delivery failed for good'));
  });
});
