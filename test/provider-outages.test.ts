// Outside services that hang or refuse hold nothing beyond their timeout, and the health page names
// the one that fails. An SMTP server that greets and then never answers (nodemailer's own timeouts
// would wait a minute for it); a translation server that never answers, while a submission waits
// in the pipeline; a Redis that is gone, on the same page.
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createMailer, MailError } from '../src/delivery/email.ts';
import { providerStates } from '../src/health/providers.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { createForm, FAST_RETRY_ENV, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';

/** An SMTP server that says hello and then reads everything and answers nothing. */
async function silentSmtpServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.write('220 silent.example ESMTP\r\n');
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('an SMTP server that never answers', () => {
  it('fails the send for now within its timeout, and is shown as failing', async () => {
    const smtp = await silentSmtpServer();
    const mailer = createMailer({ url: smtp.url, from: 'Intake <n@intake.example>' }, 300);
    try {
      const started = performance.now();
      const error = await mailer.send({ to: ['owner@intake.example'], subject: 's', text: 't', html: '<p>t</p>' }).then(() => null, (e: unknown) => e);
      const ms = performance.now() - started;
      assert.ok(error instanceof MailError, String(error));
      assert.equal(error.transient, true);
      assert.match(error.message, /no answer within 300 ms/);
      assert.ok(ms < 2_000, `the send held its caller ${ms.toFixed(0)} ms`);
      const state = providerStates().find((p) => p.provider === 'smtp');
      assert.equal(state?.ok, false);
      assert.equal(state?.failuresInARow, 1);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});

describe('a translation server that never answers, on the health page', () => {
  let t: PipelineApp;
  let provider: FakeProvider;
  before(async () => {
    provider = await startFakeProvider(() => ({ hang: true }));
    t = await startPipelineApp({
      ...FAST_RETRY_ENV, INTAKE_TRANSLATE_URL: provider.url, INTAKE_TRANSLATE_TIMEOUT_MS: '200', INTAKE_PIPELINE_MAX_ATTEMPTS: '50',
      REDIS_URL: 'redis://127.0.0.1:9',
    });
  });
  after(async () => {
    await t?.close();
    await provider?.close();
  });

  it('names the failing provider, its error and since when, and says the Redis fallback is in force', async () => {
    const owner = new DashboardClient(t);
    await owner.setUp();
    const key = await t.createKey('owner@example.com');
    const form = await createForm(t, key, { localisation_enabled: true });
    const started = performance.now();
    await submit(t, form.endpoint, { name: 'Grete', email: 'grete@example.de', message: 'Guten Tag, könnten Sie mir bitte die Preisliste schicken? Vielen Dank.' });
    // Attempts keep coming within the timeout and the backoff: none of them waits on the last.
    await waitFor('three attempts', () => (provider.requests.length >= 3 ? true : undefined));
    assert.ok(performance.now() - started < 5_000, 'three attempts of 200 ms each, with backoff, within 5 s');
    // A rate-limited request with Redis unreachable opens the breaker (three failures in a row).
    for (let i = 0; i < 3; i++) await t.request({ method: 'GET', url: `/api/forms/${form.id}`, headers: { authorization: `Bearer ${key}` } });
    const page = await owner.get('/health');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Translation \(LibreTranslate\)/);
    assert.match(page.body, /Failing since [^<]*UTC \(\d+ failures in a row\): libretranslate: no answer within 200 ms/);
    assert.match(page.body, /Redis: not answering since [^<]*UTC/);
    assert.match(page.body, /SQLite: answering|PostgreSQL: answering/);
  });
});
