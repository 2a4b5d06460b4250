// Files go where submissions go (issue 34): a webhook's payload, a chat message and an email carry
// each uploaded file's name and a signed link, never the bytes, and the links work: a receiver
// that follows one gets the very bytes that were uploaded. Real HTTP, a real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeProvider, unusedUrl, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { startSmtpServer } from './smtp.ts';

const SCHEMA = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['application/pdf'] }] }] };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const DAY_S = 86_400;

describe('files in webhooks, chat messages and emails', () => {
  let t: PipelineApp;
  let receiver: FakeProvider;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let base: string;

  before(async () => {
    receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    smtp = await startSmtpServer();
    base = await unusedUrl();
    t = await startPipelineApp({ INTAKE_PUBLIC_URL: base, INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'Intake <n@intake.test>' });
    await t.app.listen({ port: Number(new URL(base).port), host: '127.0.0.1' });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  async function download(url: string): Promise<Buffer> {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="cv\.pdf"/);
    return Buffer.from(await response.arrayBuffer());
  }
  const secondsLeft = (iso: string) => (Date.parse(iso) - Date.now()) / 1000;

  it('carry the file names and signed links that download the same bytes', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { name: 'Job applications', fields_schema: SCHEMA });
    for (const body of [
      { type: 'webhook', url: `${receiver.url}/hook` },
      { type: 'slack', url: `${receiver.url}/slack` },
      { type: 'email', recipients: ['hr@example.com'] },
    ]) {
      const created = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: body });
      assert.equal(created.statusCode, 201, created.body);
    }
    const upload = new FormData();
    upload.append('name', 'Ada');
    upload.append('cv', new Blob([PDF]), 'cv.pdf');
    const posted = await fetch(`${base}${new URL(String(form.html_endpoint)).pathname}`, { method: 'POST', body: upload, headers: { accept: 'application/json' } });
    assert.equal(posted.status, 201, await posted.clone().text());
    const submission = await posted.json() as { id: string; data: { cv: Array<{ id: string }> } };
    const fileId = submission.data.cv[0]!.id;

    // The webhook: data.files names the file and links to it for INTAKE_FILE_LINK_TTL_S (24 h).
    const hook = await waitFor('the webhook', () => receiver.requests.find((r) => r.path === '/hook'));
    const files = (hook.body as { data: { files: Array<Record<string, unknown>> } }).data.files;
    assert.equal(files.length, 1);
    assert.deepEqual({ ...files[0], url: undefined, expires_at: undefined }, {
      id: fileId, field: 'cv', filename: 'cv.pdf', content_type: 'application/pdf', size: PDF.length, sha256: files[0]!.sha256, url: undefined, expires_at: undefined, quarantine: null,
    });
    assert.ok(Math.abs(secondsLeft(String(files[0]!.expires_at)) - DAY_S) < 600, String(files[0]!.expires_at));
    assert.ok((await download(String(files[0]!.url))).equals(PDF), 'the webhook link gives the uploaded bytes');

    // The chat message names the file and carries a link (Slack escapes & as &amp;).
    const slack = await waitFor('the Slack message', () => receiver.requests.find((r) => r.path === '/slack'));
    const slackLink = /(http:\/\/127\.0\.0\.1:\d+\/files\/[^\s>|"\\]+)/.exec(slack.raw)?.[1]?.replaceAll('&amp;', '&');
    assert.ok(slack.raw.includes('cv.pdf'), slack.raw);
    assert.ok(slackLink, slack.raw);
    assert.ok((await download(slackLink)).equals(PDF), 'the Slack link gives the uploaded bytes');

    // The email: a link (INTAKE_FILE_EMAIL_LINK_TTL_S, 7 days), never an attachment.
    const { mail } = await waitFor('the email', () => smtp.received.find((r) => r.mail.subject?.includes('Job applications')));
    assert.equal(mail.attachments.length, 0);
    const emailLink = /(http:\/\/127\.0\.0\.1:\d+\/files\/\S+)/.exec(mail.text ?? '')?.[1];
    assert.ok(emailLink, mail.text);
    assert.ok(mail.html && mail.html.includes(`href="${emailLink.replaceAll('&', '&amp;')}"`), 'the HTML part links the file');
    const expires = Number(new URL(emailLink).searchParams.get('expires'));
    assert.ok(Math.abs(expires - Date.now() / 1000 - 7 * DAY_S) < 600, String(expires));
    assert.ok((await download(emailLink)).equals(PDF), 'the email link gives the uploaded bytes');
  });
});
