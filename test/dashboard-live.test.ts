// The dashboard's live stream over a real port, on the test's engine: new submissions, verdicts
// and delivery results reach the owner's stream (and only the owner's, and only the form's on a
// form's page); a session holds a bounded number of streams; closed pages leave no listener
// behind; closing the server ends open streams. The live bus's transports carry a batch as one
// message between two buses, as between two processes.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { liveBus, memoryTransport, type LiveBus } from '../src/live/bus.ts';
import { messagesOf, type LiveEvent } from '../src/live/events.ts';
import { redisTransport } from '../src/live/redis-transport.ts';
import { channelName, postgresTransport } from '../src/live/postgres-transport.ts';
import { MAX_STREAMS_PER_SESSION } from '../src/dashboard/pages/live.ts';
import { DashboardClient } from './dashboard-helpers.ts';
import { createForm, createTestStore, ENGINE, pathOf, POSTGRES_URL, startTestApp } from './helpers.ts';
import { startPipelineApp, type PipelineApp } from './pipeline-helpers.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { openStream } from './live-events.ts';
import pg from 'pg';

const until = async (probe: () => boolean, what: string, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
};

describe(`live dashboard stream (${ENGINE})`, () => {
  let t: PipelineApp;
  let base: string;
  let owner: DashboardClient;
  let key: string;
  let receiver: FakeProvider;

  before(async () => {
    receiver = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = new DashboardClient(t);
    await owner.setUp('live@example.com');
    key = await t.createKey('live@example.com');
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  const submit = (endpoint: string, message = 'Hello there') =>
    t.request({ method: 'POST', url: pathOf(endpoint), payload: { name: 'Ada', email: 'ada@example.com', message } });

  it('tells the owner of new submissions, their verdicts and delivery results, one form at a time', async () => {
    const form = await createForm(t, key);
    const other = await createForm(t, key);
    const created = await t.request({
      method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: { authorization: `Bearer ${key}` },
      payload: { type: 'webhook', url: `${receiver.url}/hook` },
    });
    assert.equal(created.statusCode, 201, created.body);
    const all = await openStream(`${base}/live`, owner.cookieHeader());
    const one = await openStream(`${base}/live?form=${other.id}`, owner.cookieHeader());
    assert.equal(all.status, 200);
    await all.next('ready');
    assert.deepEqual((await one.next('ready')).data, { form: other.id });

    assert.equal((await submit(form.endpoint)).statusCode, 201);
    assert.deepEqual((await all.next('submissions')).data, { form: form.id, count: 1 });
    assert.equal((await all.next('verdicts')).data.form, form.id);
    assert.equal((await all.next('deliveries', 10_000)).data.form, form.id);
    // An owner's correction through the API (or an agent's, through MCP) shows too.
    const id = (await t.request({ method: 'GET', url: `/api/forms/${form.id}/submissions`, headers: { authorization: `Bearer ${key}` } })).json().data[0].id;
    const corrected = await t.request({ method: 'PATCH', url: `/api/forms/${form.id}/submissions/${id}`, headers: { authorization: `Bearer ${key}` }, payload: { spam_flag: true } });
    assert.equal(corrected.statusCode, 200, corrected.body);
    assert.deepEqual((await all.next('verdicts')).data, { form: form.id, count: 1 });

    assert.equal((await submit(other.endpoint)).statusCode, 201);
    assert.deepEqual((await one.next('submissions')).data, { form: other.id, count: 1 });
    assert.ok(!one.events.some((e) => e.data.form === form.id), 'a form page hears only of its form');
    all.close();
    one.close();
    await until(() => t.services.live.listeners() === 0, 'the closed streams to unsubscribe');
  });

  it('tells another owner nothing, and refuses another owner\'s form', async () => {
    const form = await createForm(t, key);
    const strangerKey = await t.createKey('stranger@example.com');
    await createForm(t, strangerKey);
    await t.services.dashboard.setPasswordOf('stranger@example.com', 'correct horse battery');
    const stranger = new DashboardClient(t);
    assert.equal((await stranger.logIn('stranger@example.com', 'correct horse battery')).statusCode, 303);
    const theirs = await openStream(`${base}/live`, stranger.cookieHeader());
    await theirs.next('ready');
    const refused = await openStream(`${base}/live?form=${form.id}`, stranger.cookieHeader());
    assert.equal(refused.status, 404);
    for (const hostile of ['not-a-uuid', '%3Cscript%3E', 'x'.repeat(5000), '00000000-0000-0000-0000-000000000000']) {
      const answer = await openStream(`${base}/live?form=${hostile}`, owner.cookieHeader());
      assert.ok(answer.status >= 400 && answer.status < 500, `form=${hostile.slice(0, 20)} answered ${answer.status}`);
    }
    assert.equal((await submit(form.endpoint)).statusCode, 201);
    const mine = await openStream(`${base}/live`, owner.cookieHeader());
    await mine.next('ready');
    assert.equal((await submit(form.endpoint)).statusCode, 201);
    await mine.next('submissions');
    await sleep(300);
    assert.ok(!theirs.events.some((e) => e.event === 'submissions'), 'no event of another owner');
    theirs.close();
    mine.close();
    await until(() => t.services.live.listeners() === 0, 'the closed streams to unsubscribe');
  });

  it('answers a page without a session with a redirect, not a stream', async () => {
    const anonymous = await openStream(`${base}/live`, '');
    assert.equal(anonymous.status, 303);
  });

  it(`holds at most ${MAX_STREAMS_PER_SESSION} streams per session, and frees them when pages close`, async () => {
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) {
      const stream = await openStream(`${base}/live`, owner.cookieHeader());
      await stream.next('ready');
      streams.push(stream);
    }
    const extra = await openStream(`${base}/live`, owner.cookieHeader());
    assert.equal(extra.status, 429, 'the page falls back to polling');
    assert.equal(t.services.live.listeners(), MAX_STREAMS_PER_SESSION);
    for (const stream of streams) stream.close();
    await until(() => t.services.live.listeners() === 0, 'every closed stream to unsubscribe');
    const again = await openStream(`${base}/live`, owner.cookieHeader());
    await again.next('ready');
    again.close();
    await until(() => t.services.live.listeners() === 0, 'the last stream to unsubscribe');
  });
});

describe('closing the server', () => {
  it('ends the streams still open instead of waiting for them', async () => {
    const t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const owner = new DashboardClient(t);
    await owner.setUp('closing@example.com');
    const stream = await openStream(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/live`, owner.cookieHeader());
    await stream.next('ready');
    const started = Date.now();
    await t.close();
    assert.ok(Date.now() - started < 5_000, 'close did not wait on the open stream');
    assert.equal(t.services.live.listeners(), 0);
    stream.close();
  });
});

describe('live bus transports', () => {
  const event = (form: string, count = 1): LiveEvent => ({ type: 'submissions', account: 'a1', form, count });

  it('packs a batch into one message, and splits only past the transport\'s size', () => {
    const events = Array.from({ length: 200 }, (_, i) => event(`form-${i}-${'x'.repeat(20)}`));
    assert.equal(messagesOf(events.slice(0, 3), 7_900).length, 1);
    const split = messagesOf(events, 7_900);
    assert.ok(split.length > 1 && split.every((m) => Buffer.byteLength(m) <= 7_900));
    assert.equal(split.flatMap((m) => JSON.parse(m) as LiveEvent[]).length, 200);
  });

  async function crossProcess(a: LiveBus, b: LiveBus): Promise<void> {
    const heard: Array<LiveEvent | 'resync'> = [];
    const stop = await b.subscribe('a1', (e) => heard.push(e));
    await b.subscribe('a2', () => assert.fail('another account hears nothing'));
    a.publish([event('f1', 3), event('f2')]);
    await until(() => heard.length === 2, 'both events on the other bus');
    assert.deepEqual(heard, [event('f1', 3), event('f2')]);
    stop();
    a.publish([event('f1')]);
    await sleep(200);
    assert.equal(heard.length, 2, 'nothing after unsubscribing');
    await Promise.all([a.close(), b.close()]);
  }

  it('in memory, within one process', async () => {
    const bus = liveBus(memoryTransport());
    await crossProcess(bus, bus);
  });

  it('through Redis pub/sub', async () => {
    const redis = { url: 'redis://127.0.0.1:6379', prefix: `live-${randomBytes(4).toString('hex')}:`, commandTimeoutMs: 500, breakAfter: 3, probeMs: 500 };
    await crossProcess(liveBus(redisTransport(redis)), liveBus(redisTransport(redis)));
  });

  it('tells listeners to refresh after the PostgreSQL listening connection was cut, and listens again', { skip: POSTGRES_URL ? false : 'DATABASE_URL is not set' }, async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL as string, max: 2 });
    const schema = `live_${randomBytes(4).toString('hex')}`;
    const [a, b] = [liveBus(postgresTransport(pool, POSTGRES_URL as string, schema)), liveBus(postgresTransport(pool, POSTGRES_URL as string, schema))];
    try {
      const heard: Array<LiveEvent | 'resync'> = [];
      await b.subscribe('a1', (e) => heard.push(e));
      // What an operator's restart or a network cut does to the listening connection.
      await pool.query(`select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN "${channelName(schema)}"'`);
      await until(() => heard.includes('resync'), 'a resync after the reconnection', 10_000);
      a.publish([event('f1')]);
      await until(() => heard.some((e) => e !== 'resync'), 'events again on the new connection');
    } finally {
      await Promise.all([a.close(), b.close()]);
      await pool.end();
    }
  });

  it('through PostgreSQL LISTEN/NOTIFY', { skip: POSTGRES_URL ? false : 'DATABASE_URL is not set' }, async () => {
    const store = await createTestStore();
    const pool = new pg.Pool({ connectionString: POSTGRES_URL as string, max: 2 });
    try {
      const schema = `live_${randomBytes(4).toString('hex')}`;
      await crossProcess(liveBus(postgresTransport(pool, POSTGRES_URL as string, schema)), liveBus(postgresTransport(pool, POSTGRES_URL as string, schema)));
    } finally {
      await pool.end();
      await store.cleanup();
    }
  });
});

describe('a live bus whose transport is away', () => {
  it('never throws at the publisher and logs one line a minute, not one per batch', async () => {
    const warnings: string[] = [];
    const redis = { url: 'redis://127.0.0.1:1', prefix: 'live-down:', commandTimeoutMs: 50, breakAfter: 3, probeMs: 500 };
    const bus = liveBus(redisTransport(redis));
    bus.useLog({ warn: (_, message) => warnings.push(message) });
    for (let i = 0; i < 20; i++) bus.publish([{ type: 'submissions', account: 'a', form: 'f', count: 1 }]);
    await until(() => warnings.length === 1, 'the first warning');
    await sleep(300);
    assert.equal(warnings.length, 1);
    await bus.close();
  });
});
