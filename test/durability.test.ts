// A 201 means stored: kill the server with SIGKILL while submissions pour in, restart it, and
// find every submission that was answered 201.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from './cli.ts';
import { exited, startServer } from './processes.ts';
import { CONTACT_SCHEMA, createTestStore, type TestStore, RELAXED_ENV } from './helpers.ts';

describe('durability', () => {
  let store: TestStore;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    env = { ...RELAXED_ENV, ...store.env };
  });
  after(() => store.cleanup());

  it('loses no submission answered 201 when the server is killed mid-stream', async () => {
    const key = (await runCli(['keys', 'create', '--email', 'durable@example.com', '--name', 'k'], env)).stdout.trim();
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let server = await startServer(env);
    const form = await (await fetch(`${server.base}/api/forms`, {
      method: 'POST', headers: auth,
      body: JSON.stringify({ name: 'Durable', slug: 'durable', visibility: 'public', fields_schema: CONTACT_SCHEMA }),
    })).json() as { id: string; endpoint: string };
    const endpoint = new URL(form.endpoint).pathname;

    const acknowledged: string[] = [];
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop && i < 10_000; i++) {
        try {
          const response = await fetch(`${server.base}${endpoint}`, {
            method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: `Client ${n}`, email: `c${n}@example.com`, message: `message ${i}` }),
          });
          if (response.status === 201) acknowledged.push(((await response.json()) as { id: string }).id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Array.from({ length: 16 }, (_, n) => client(n));
    while (acknowledged.length < 200) await sleep(10);
    const killed = exited(server.child);
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    await killed;

    server = await startServer(env);
    try {
      const stored = new Set<string>();
      for (let page = 1; ; page++) {
        const body = await (await fetch(`${server.base}/api/forms/${form.id}/submissions?filter=all&page_size=100&page=${page}`, { headers: auth })).json() as {
          data: Array<{ id: string }>;
          meta: { total_pages: number };
        };
        for (const s of body.data) stored.add(s.id);
        if (page >= body.meta.total_pages) break;
      }
      const lost = acknowledged.filter((id) => !stored.has(id));
      assert.equal(lost.length, 0, `${lost.length} of ${acknowledged.length} acknowledged submissions were lost`);
      assert.ok(acknowledged.length >= 200);
    } finally {
      const stopped = exited(server.child);
      server.child.kill('SIGTERM');
      await stopped;
    }
  });
});
