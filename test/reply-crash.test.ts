// A worker killed with SIGKILL while auto replies are being emailed: after a restart every reply
// is recorded `sent` once and has reached its submitter, and every copy a submitter got carries the
// one Message-ID of that reply. The SMTP server is slow to accept recipients (as servers that look
// up mailboxes are) and to confirm messages (as servers that scan them are), so the kill lands in
// the middle of SMTP exchanges. Like a real server, it delivers a message as soon as it has all of
// it, whether or not the client lives to read the 250: a send the kill interrupts between that and
// the worker's record of `sent` is made again by the restarted job, under the same Message-ID, by
// which mail systems drop the copy. So copies are allowed, at most one per send under way at the
// kill, and only under the reply's own Message-ID; any other reply arrives exactly once.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { runCli } from './cli.ts';
import { FAQ } from './fixtures.ts';
import { createTestStore, ENGINE, RELAXED_ENV, type TestStore } from './helpers.ts';
import { apiClient, startServer, startWorker, stop } from './processes.ts';
import { REPLY_SCHEMA } from './reply-helpers.ts';

const SUBMISSIONS = 24;
const KILL_AFTER_MESSAGES = 6;

/** An SMTP server that takes `delayMs` to accept each recipient and to confirm each message; a message counts once its DATA is in. */
async function slowSmtpServer(delayMs: number) {
  const messages: Array<{ to: string; messageId: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      setTimeout(() => callback(), delayMs / 2 + Math.random() * delayMs);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        messages.push({ to: session.envelope.rcptTo[0]?.address ?? '', messageId: String(mail.messageId) });
        setTimeout(() => callback(), delayMs);
      }, (error: Error) => callback(error));
    },
  });
  // A killed client resets its connections; the server carries on.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('reply worker crash', () => {
  let store: TestStore;
  let smtp: Awaited<ReturnType<typeof slowSmtpServer>>;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    smtp = await slowSmtpServer(100);
    env = {
      ...RELAXED_ENV, ...store.env,
      INTAKE_EMBEDDED_WORKER: 'false',
      INTAKE_SMTP_URL: smtp.url, INTAKE_MAIL_FROM: 'replies@intake.example',
      INTAKE_WORKER_LEASE_MS: '1000',
      INTAKE_PIPELINE_RETRY_SCHEDULE: '50ms,100ms,200ms',
    };
  });
  after(async () => {
    await smtp?.close();
    await store?.cleanup();
  });

  it('sends every reply exactly once after a SIGKILL, and records each sent', async (t) => {
    const key = (await runCli(['keys', 'create', '--email', 'replies@example.com', '--name', 'k'], env)).stdout.trim();
    const server = await startServer(env);
    const workers = [startWorker(env), ...(ENGINE === 'postgres' ? [startWorker(env)] : [])];
    try {
      const api = apiClient(server.base, key);
      const kb = await api('POST', '/api/knowledge_bases', { name: 'FAQ', content: FAQ, signature: 'The Shop team' });
      assert.equal(kb.status, 201, JSON.stringify(kb.json));
      const form = await api('POST', '/api/forms', {
        name: 'Crash', slug: 'crash', visibility: 'public', fields_schema: REPLY_SCHEMA,
        smart_reply_enabled: true, smart_replies_mode: 'auto', knowledge_base_id: kb.json.id,
      });
      assert.equal(form.status, 201, JSON.stringify(form.json));
      const endpoint = String(form.json.endpoint).replace(/^https?:\/\/[^/]+/, server.base);
      const ids: string[] = [];
      for (let i = 0; i < SUBMISSIONS; i++) {
        const response = await fetch(endpoint, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Ada', email: `ada${i}@example.com`, message: 'Do you ship to Canada? How long does it take?' }),
        });
        assert.equal(response.status, 201);
        ids.push(((await response.json()) as { id: string }).id);
      }

      const killDeadline = Date.now() + 30_000;
      while (smtp.messages.length < KILL_AFTER_MESSAGES) {
        if (Date.now() > killDeadline) assert.fail(`the SMTP server got only ${smtp.messages.length} messages`);
        await sleep(5);
      }
      await stop(workers[0]!, 'SIGKILL');
      const atKill = smtp.messages.length;
      workers[0] = startWorker(env);

      const deadline = Date.now() + 60_000;
      let replies: Array<{ id: string; reply_status: string; reply_reason: string | null; replied_at: string | null }> = [];
      for (;;) {
        replies = await Promise.all(ids.map(async (id) => (await api('GET', `/api/forms/${form.json.id}/submissions/${id}`)).json as never));
        if (replies.every((r) => r.reply_status === 'sent') || Date.now() > deadline) break;
        await sleep(100);
      }
      assert.ok(atKill < SUBMISSIONS, 'the kill landed while replies were being sent');
      assert.deepEqual(replies.map((r) => r.reply_status), Array(SUBMISSIONS).fill('sent'));
      assert.ok(replies.every((r) => r.replied_at));

      let copies = 0;
      ids.forEach((id, i) => {
        const received = smtp.messages.filter((m) => m.to === `ada${i}@example.com`).map((m) => m.messageId);
        assert.ok(received.length >= 1, `the reply to submission ${i} arrived`);
        assert.deepEqual(new Set(received), new Set([`<reply.${id}@intake.example>`]), `every copy of reply ${i} has its Message-ID`);
        assert.equal(replies[i]!.reply_reason, null);
        copies += received.length - 1;
      });
      // Only sends under way at the kill may have been made twice: at most one per slot of the killed worker.
      assert.ok(copies <= 16, `${copies} copies`);
      t.diagnostic(`${atKill} of ${SUBMISSIONS} messages in at the kill; ${copies} sent again under their Message-ID`);
      const settledAt = smtp.messages.length;
      await sleep(1500);
      assert.equal(smtp.messages.length, settledAt, 'nothing is sent once every reply is recorded sent');
    } finally {
      for (const worker of workers) await stop(worker);
      await stop(server.child);
    }
  });
});
