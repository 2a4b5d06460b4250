// A quarantined file in notifications (issue 34), with a clamd the test starts (test/clamd.ts): the
// webhook payload, a chat message and an email name the infected file with the signature clamd found
// and carry no link to it (that link would only answer 403), while the clean file beside it keeps a
// link that downloads its bytes. Real HTTP, a real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clamdMissing, EICAR, SIGNATURE, startClamd, type Clamd } from './clamd.ts';
import { startFakeProvider, unusedUrl, type FakeProvider } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { startSmtpServer } from './smtp.ts';

const SCHEMA = { fields: [{ name: 'name', type: 'string', required: true }, { name: 'cv', type: 'file', required: true, rules: [{ op: 'accept', value: ['text/plain'] }, { op: 'max_files', value: 2 }] }] };
const FOUND = `${SIGNATURE}.UNOFFICIAL`;
const CLEAN = Buffer.from('a plain, harmless CV\n');

describe('a quarantined file in webhooks, chat messages and emails', { skip: clamdMissing }, () => {
  let clamd: Clamd;
  let t: PipelineApp;
  let receiver: FakeProvider;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let base: string;

  before(async () => {
    clamd = await startClamd();
    receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    smtp = await startSmtpServer();
    base = await unusedUrl();
    t = await startPipelineApp({
      INTAKE_PUBLIC_URL: base, INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'Intake <n@intake.test>',
      INTAKE_CLAMAV_URL: `tcp://127.0.0.1:${clamd.port}`, INTAKE_CLAMAV_TIMEOUT_MS: '5000',
    });
    await t.app.listen({ port: Number(new URL(base).port), host: '127.0.0.1' });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
    await clamd?.cleanup();
  });

  const fileUrls = (text: string) => [...text.matchAll(/http:\/\/127\.0\.0\.1:\d+\/files\/([A-Za-z0-9_-]+)\?[^\s>|"\\<]+/g)].map((m) => ({ url: m[0].replaceAll('&amp;', '&'), id: m[1]! }));
  async function bytesAt(url: string): Promise<Buffer> {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    return Buffer.from(await response.arrayBuffer());
  }

  it('name the infected file with its signature and no link; the clean file keeps a working link', async () => {
    const key = await t.createKey();
    const form = await createForm(t, key, { name: 'Applications', fields_schema: SCHEMA });
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
    upload.append('cv', new Blob([EICAR]), 'eicar.txt');
    upload.append('cv', new Blob([CLEAN]), 'cv.txt');
    const posted = await fetch(`${base}${new URL(String(form.html_endpoint)).pathname}`, { method: 'POST', body: upload, headers: { accept: 'application/json' } });
    assert.equal(posted.status, 201, await posted.clone().text());
    const [infected, clean] = (await posted.json() as { data: { cv: Array<{ id: string }> } }).data.cv.map((file) => file.id);

    // The webhook: the infected file has url and expires_at null and quarantine set; the clean one a link.
    const hook = await waitFor('the webhook', () => receiver.requests.find((r) => r.path === '/hook'));
    const files = (hook.body as { data: { files: Array<Record<string, unknown>> } }).data.files;
    assert.deepEqual(files.map((f) => [f.id, f.filename, f.url === null, f.expires_at === null, f.quarantine]), [
      [infected, 'eicar.txt', true, true, FOUND],
      [clean, 'cv.txt', false, false, null],
    ]);
    assert.ok((await bytesAt(String(files[1]!.url))).equals(CLEAN));
    assert.equal(hook.raw.includes(`/files/${infected}`), false, 'no link to the quarantined file anywhere in the payload');

    // The chat message: named, marked with the signature, no link to it; the clean file's link works.
    const slack = await waitFor('the Slack message', () => receiver.requests.find((r) => r.path === '/slack'));
    assert.ok(slack.raw.includes(`eicar.txt (${EICAR.length} B): quarantined, malware found (${FOUND}); no download link`), slack.raw);
    assert.deepEqual(fileUrls(slack.raw).map((link) => link.id), [clean]);
    assert.ok((await bytesAt(fileUrls(slack.raw)[0]!.url)).equals(CLEAN));

    // The email, both parts: the same words, and a link only for the clean file.
    const { mail } = await waitFor('the email', () => smtp.received.find((r) => r.mail.subject?.includes('Applications')));
    assert.match(String(mail.subject), /^\[Malware\] /);
    assert.ok(mail.text?.includes(`eicar.txt (${EICAR.length} B): quarantined, malware found (${FOUND}); no download link`), mail.text);
    assert.ok(mail.html && mail.html.includes(`eicar.txt (${EICAR.length} B): <strong style="color:#b3261e">quarantined, malware found (${FOUND})</strong>`), String(mail.html));
    assert.deepEqual(fileUrls(mail.text ?? '').map((link) => link.id), [clean]);
    assert.deepEqual([...new Set(fileUrls(String(mail.html)).map((link) => link.id))], [clean]);
    assert.ok((await bytesAt(fileUrls(mail.text ?? '')[0]!.url)).equals(CLEAN));
  });
});
