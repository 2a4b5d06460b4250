// A worker killed with SIGKILL in the middle of deliveries loses none: after a restart every
// submission's event reaches the webhook receiver with a 2xx answer at least once (duplicates are
// allowed: delivery is at-least-once) and every delivery ends `succeeded`. The receiver is slow, so
// the kill lands while requests are under way, and fails the first request for every third event,
// so retries are pending too. On PostgreSQL two workers share the work, and one of them is killed.
// The leftovers are taken up long before the killed worker's lease would run out.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONTACT_SCHEMA, createTestStore, ENGINE, prepareStore, RELAXED_ENV, type TestStore } from './helpers.ts';
import { apiClient, LEASE_PAST_THE_TEST_MS, startServer, startWorker, stop } from './processes.ts';

const SUBMISSIONS = 30;
const KILL_AFTER_REQUESTS = 8;

interface Answer { eventId: string; status: number }

/** A webhook receiver that answers after `delayMs`, with 500 to the first request of every third event. */
async function flakyReceiver(delayMs: number) {
  const firstSeen = new Map<string, number>();
  const answers: Answer[] = [];
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      const eventId = String(req.headers['webhook-id'] ?? '');
      const first = !firstSeen.has(eventId);
      if (first) firstSeen.set(eventId, firstSeen.size);
      const status = first && firstSeen.get(eventId)! % 3 === 0 ? 500 : 200;
      setTimeout(() => {
        // Counted once the answer is handed to the connection; a killed worker's socket may be gone.
        res.on('finish', () => answers.push({ eventId, status }));
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: status === 200 }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    answers,
    firstSeen,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

interface LoggedDelivery {
  submission_id: string | null;
  event_id: string;
  status: string;
  attempts: number;
  log: Array<{ status_code: number | null }>;
}

describe('delivery worker crash', () => {
  let store: TestStore;
  let receiver: Awaited<ReturnType<typeof flakyReceiver>>;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    receiver = await flakyReceiver(150);
    env = {
      ...RELAXED_ENV,
      ...store.env,
      INTAKE_EMBEDDED_WORKER: 'false',
      INTAKE_OUTBOUND_ALLOW: '127.0.0.1',
      INTAKE_DELIVERY_RETRY_SCHEDULE: '50ms,100ms,200ms',
      INTAKE_WORKER_LEASE_MS: LEASE_PAST_THE_TEST_MS,
    };
  });
  after(async () => {
    await receiver?.close();
    await store?.cleanup();
  });

  it('delivers every submission after a SIGKILL, at least once, and logs each as succeeded', async (t) => {
    // The owner's key is made through the account service (the migrations with it), so that the server
    // and the workers, started side by side, find the schema in place.
    const [key] = await prepareStore(store, ['crash@example.com']);
    const workers = [startWorker(env), ...(ENGINE === 'postgres' ? [startWorker(env)] : [])];
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      server = await startServer(env);
      const api = apiClient(server.base, key!);
      const form = await api('POST', '/api/forms', { name: 'Crash', slug: 'crash', visibility: 'public', fields_schema: CONTACT_SCHEMA });
      assert.equal(form.status, 201, JSON.stringify(form.json));
      const destination = await api('POST', `/api/forms/${form.json.id}/destinations`, { type: 'webhook', url: `${receiver.url}/hook` });
      assert.equal(destination.status, 201, JSON.stringify(destination.json));

      const endpoint = String(form.json.endpoint).replace(/^https?:\/\/[^/]+/, server.base);
      const submissionIds: string[] = [];
      for (let i = 0; i < SUBMISSIONS; i++) {
        const response = await fetch(endpoint, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Ada ${i}`, email: `ada${i}@example.com`, message: `Message number ${i}` }),
        });
        assert.equal(response.status, 201);
        submissionIds.push(((await response.json()) as { id: string }).id);
      }

      const killDeadline = Date.now() + 20_000;
      while (receiver.received() < KILL_AFTER_REQUESTS) {
        if (Date.now() > killDeadline) assert.fail(`the receiver got only ${receiver.received()} requests`);
        await sleep(10);
      }
      await stop(workers[0]!, 'SIGKILL');
      const receivedAtKill = receiver.received();
      const killedAt = Date.now();
      workers[0] = startWorker(env);

      const deadline = Date.now() + 60_000;
      let deliveries: LoggedDelivery[] = [];
      for (;;) {
        const page = await api('GET', `/api/forms/${form.json.id}/destinations/${destination.json.id}/deliveries?page_size=100`);
        assert.equal(page.status, 200, JSON.stringify(page.json));
        deliveries = page.json.data as LoggedDelivery[];
        if (deliveries.length === SUBMISSIONS && deliveries.every((d) => d.status !== 'pending')) {
          t.diagnostic(`every delivery settled ${Date.now() - killedAt} ms after the kill`);
          break;
        }
        if (Date.now() > deadline) break;
        await sleep(100);
      }

      assert.ok(receivedAtKill < SUBMISSIONS, 'the kill landed before the deliveries were done');
      assert.deepEqual(deliveries.map((d) => d.status), Array(SUBMISSIONS).fill('succeeded'));
      assert.deepEqual(deliveries.map((d) => d.submission_id).sort(), [...submissionIds].sort(), 'one delivery per submission');
      const eventIds = new Set(deliveries.map((d) => d.event_id));
      assert.equal(eventIds.size, SUBMISSIONS, 'each submission has its own event id');
      for (const eventId of eventIds) {
        assert.ok(
          receiver.answers.some((a) => a.eventId === eventId && a.status >= 200 && a.status < 300),
          `event ${eventId} was answered 2xx by the receiver`,
        );
      }
      // Every third event was refused once: those deliveries had to be retried, and were.
      const refused = [...receiver.firstSeen].filter(([, index]) => index % 3 === 0).map(([id]) => id);
      assert.equal(refused.length, SUBMISSIONS / 3);
      for (const eventId of refused) assert.ok(eventIds.has(eventId), 'the receiver saw no event that is not in the log');
      assert.ok(deliveries.some((d) => d.attempts >= 2 && d.log.some((a) => a.status_code === 500)), 'a retried delivery is in the log');
    } finally {
      for (const worker of workers) await stop(worker);
      if (server) await stop(server.child);
    }
  });
});
