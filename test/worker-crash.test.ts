// A worker killed with SIGKILL in the middle of processing loses nothing: after a restart every
// submission reaches a final status, each step's result is recorded once and no credit is charged
// twice. On PostgreSQL two workers share the work, and one of them is killed. The leftovers are
// taken up long before the killed worker's lease would run out.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../src/db/database.ts';
import { loadConfig } from '../src/config.ts';
import { runCli } from './cli.ts';
import { CONTACT_SCHEMA, createTestStore, ENGINE, RELAXED_ENV, type TestStore } from './helpers.ts';
import { LEASE_PAST_THE_TEST_MS, startServer, startWorker, stop } from './processes.ts';

const SUBMISSIONS = 40;

/** A LibreTranslate stand-in that takes its time, so the kill lands while translations are under way. */
async function slowTranslator(delayMs: number) {
  let received = 0;
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received++;
      const body = JSON.parse(text) as { q: string[]; target: string };
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ translatedText: body.q.map((q) => `[${body.target}] ${q}`) }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('worker crash', () => {
  let store: TestStore;
  let translator: Awaited<ReturnType<typeof slowTranslator>>;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    translator = await slowTranslator(150);
    env = {
      ...RELAXED_ENV,
      ...store.env,
      INTAKE_EMBEDDED_WORKER: 'false',
      INTAKE_TRANSLATE_URL: translator.url,
      INTAKE_WORKER_LEASE_MS: LEASE_PAST_THE_TEST_MS,
      INTAKE_WORKER_CONCURRENCY: '4',
      INTAKE_FREE_AI_CREDITS: '1000',
    };
  });
  after(async () => {
    await translator.close();
    await store.cleanup();
  });

  it('finishes every submission after a SIGKILL, charging each step once', async (t) => {
    const key = (await runCli(['keys', 'create', '--email', 'crash@example.com', '--name', 'k'], env)).stdout.trim();
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const server = await startServer(env);
    const workers = [startWorker(env), ...(ENGINE === 'postgres' ? [startWorker(env)] : [])];
    try {
      const form = (await (await fetch(`${server.base}/api/forms`, {
        method: 'POST', headers: auth,
        body: JSON.stringify({
          name: 'Crash', slug: 'crash', visibility: 'public', fields_schema: CONTACT_SCHEMA,
          localisation_enabled: true, spam_protection_enabled: true, spam_protection_strategy: 'intelligent',
        }),
      })).json()) as { id: string; endpoint: string };
      const ids: string[] = [];
      for (let i = 0; i < SUBMISSIONS; i++) {
        const response = await fetch(form.endpoint.replace(/^https?:\/\/[^/]+/, server.base), {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Grete ${i}`, email: `grete${i}@example.de`, message: `Guten Tag, ich hätte gern ein Angebot für ${i + 2} Gartenstühle aus Holz. Vielen Dank!` }),
        });
        assert.equal(response.status, 201);
        ids.push(((await response.json()) as { id: string }).id);
      }

      while (translator.received() < 6) await sleep(10);
      await stop(workers[0]!, 'SIGKILL');
      const killedAt = Date.now();
      workers[0] = startWorker(env);

      const deadline = Date.now() + 60_000;
      let statuses: string[] = [];
      while (Date.now() < deadline) {
        const page = (await (await fetch(`${server.base}/api/forms/${form.id}/submissions?filter=all&page_size=100`, { headers: auth })).json()) as {
          data: Array<{ processing_status: string }>;
        };
        statuses = page.data.map((s) => s.processing_status);
        if (statuses.length === SUBMISSIONS && statuses.every((s) => s === 'completed' || s === 'failed' || s === 'skipped')) break;
        await sleep(100);
      }
      assert.deepEqual(statuses, Array(SUBMISSIONS).fill('completed'));
      t.diagnostic(`every submission final ${Date.now() - killedAt} ms after the kill`);

      const database = openDatabase(loadConfig(env));
      try {
        const rows = await database.db.selectFrom('submissions').select(['id', 'translated_data', 'pipeline_steps']).execute();
        for (const row of rows) {
          const translated = (typeof row.translated_data === 'string' ? JSON.parse(row.translated_data) : row.translated_data) as Record<string, string>;
          assert.match(translated.message ?? '', /^\[en\] Guten Tag/);
        }
        const charges = await database.db.selectFrom('credit_charges').select(['step']).execute();
        assert.equal(charges.filter((c) => c.step === 'spam_check').length, SUBMISSIONS);
        assert.equal(charges.filter((c) => c.step === 'translation').length, SUBMISSIONS);
        const usage = await database.db.selectFrom('credit_usage').select('used').executeTakeFirstOrThrow();
        assert.equal(Number(usage.used), 2 * SUBMISSIONS, 'each submission paid for one check and one translation, no more');
        assert.ok(translator.received() >= SUBMISSIONS);
      } finally {
        await database.close();
      }
    } finally {
      for (const worker of workers) await stop(worker);
      await stop(server.child);
    }
  });
});
