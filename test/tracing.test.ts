// OpenTelemetry traces (src/tracing), end to end across processes: an API process and a separate
// worker process, both exporting to a loopback OTLP/HTTP receiver this test starts. One submission
// through each door (JSON and plain HTML form) to a form with a webhook to a real local receiver;
// after the webhooks arrive the processes are stopped (their shutdown sends the last spans) and each
// submission's span tree is checked: one trace, the submit request its root, the processing job the
// child of that request across the queue (the trace context carried in the job's payload), each
// pipeline step the job's child, the delivery job the processing job's child, and the webhook's
// attempt with its outcome.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from './cli.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { CLIENT, CONSUMER, SERVER, spansOf, type Span } from './otlp.ts';
import { CONTACT_SCHEMA, createTestStore, RELAXED_ENV, type TestStore } from './helpers.ts';
import { startServer, startWorker, stop } from './processes.ts';

const MESSAGE = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Could you send me the price list for garden chairs?' };

describe('traces of a submission across processes', () => {
  let store: TestStore;
  let collector: FakeProvider;
  let hooks: FakeProvider;
  let env: Record<string, string>;
  before(async () => {
    store = await createTestStore();
    collector = await startFakeProvider(() => ({ status: 200, body: {} }));
    hooks = await startFakeProvider(() => ({ status: 200, body: { ok: true } }));
    env = {
      ...RELAXED_ENV,
      ...store.env,
      INTAKE_EMBEDDED_WORKER: 'false',
      INTAKE_OUTBOUND_ALLOW: '127.0.0.1',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'intake-under-test',
    };
  });
  after(async () => {
    await collector?.close();
    await hooks?.close();
    await store?.cleanup();
  });

  it('runs from each submit request through the queue to its pipeline steps and its webhook', async () => {
    const key = (await runCli(['keys', 'create', '--email', 'traces@example.com', '--name', 'k'], env)).stdout.trim();
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const server = await startServer(env);
    const worker = startWorker(env);
    let ids: { json: string; html: string };
    let form: { id: string; endpoint: string; html_endpoint: string; slug: string };
    try {
      form = (await (await fetch(`${server.base}/api/forms`, {
        method: 'POST', headers: auth, body: JSON.stringify({ name: 'Traced', slug: 'traced', visibility: 'public', fields_schema: CONTACT_SCHEMA }),
      })).json()) as typeof form;
      const destination = await fetch(`${server.base}/api/forms/${form.id}/destinations`, {
        method: 'POST', headers: auth, body: JSON.stringify({ type: 'webhook', url: `${hooks.url}/hook` }),
      });
      assert.equal(destination.status, 201, await destination.text());

      const json = await fetch(`${server.base}${new URL(form.endpoint).pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(MESSAGE) });
      assert.equal(json.status, 201);
      const html = await fetch(`${server.base}${new URL(form.html_endpoint).pathname}`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(MESSAGE).toString(),
      });
      assert.equal(html.status, 201);
      ids = { json: ((await json.json()) as { id: string }).id, html: ((await html.json()) as { id: string }).id };

      for (let i = 0; hooks.requests.length < 2; i++) {
        if (i > 600) assert.fail(`only ${hooks.requests.length} webhooks arrived`);
        await sleep(50);
      }
    } finally {
      // SIGTERM: each process sends its last spans as it shuts down.
      await stop(worker);
      await stop(server.child);
    }

    const spans = spansOf(collector);
    assert.ok(spans.every((s) => s.service === 'intake-under-test'), 'OTEL_SERVICE_NAME names the service');
    for (const door of ['json', 'html'] as const) {
      const id = ids[door];
      const request = spans.find((s) => s.kind === SERVER && s.attributes['intake.submission.id'] === id);
      assert.ok(request, `the ${door} submit request's span`);
      const trace = spans.filter((s) => s.traceId === request.traceId);
      const about = spans.filter((s) => s.attributes['intake.submission.id'] === id);
      assert.ok(about.every((s) => s.traceId === request.traceId), 'every span naming the submission is in its one trace');
      const byId = new Map(trace.map((s) => [s.spanId, s]));
      const childrenOf = (parent: Span, name: string | RegExp) =>
        trace.filter((s) => s.parent === parent.spanId && (typeof name === 'string' ? s.name === name : name.test(s.name)));
      const only = (parent: Span, name: string | RegExp) => {
        const found = childrenOf(parent, name);
        assert.equal(found.length, 1, `one ${name} under ${parent.name}: ${JSON.stringify(trace.map((s) => [s.name, s.parent && byId.get(s.parent)?.name]))}`);
        return found[0]!;
      };

      // The root: the request, in the API process, named by its route's template (no form id or slug in any name).
      assert.equal(request.parent, null, 'the submit request is the root');
      assert.equal(request.process, 'serve');
      assert.equal(request.name, door === 'json' ? 'POST /api/:segment/f/:slug' : 'POST /f/:segment/:slug');
      assert.equal(request.attributes['http.response.status_code'], 201);
      assert.equal(request.attributes['intake.form.id'], form.id);
      assert.ok(trace.every((s) => !s.name.includes(form.id) && !s.name.includes(form.slug) && !s.name.includes(id)), 'no ids in span names');
      // The group commit is told by the request's own attributes, not a span of its own (one span per submission on the submit path).
      assert.equal(request.attributes['intake.commit.outcome'], 'created');
      assert.ok(Number(request.attributes['intake.batch.size']) >= 1);
      assert.equal(typeof request.attributes['intake.commit.ms'], 'number');
      assert.ok(Number(request.attributes['intake.commit.wait_ms']) <= Number(request.attributes['intake.commit.ms']), 'the wait for the batch is part of the commit');
      assert.equal(childrenOf(request, 'submission.commit').length, 0);

      // Across the queue: the processing job, in the worker process, is the request's child; its wait is shown.
      const job = only(request, /^job process_submissions?$/);
      assert.equal(job.process, 'worker');
      assert.equal(job.kind, CONSUMER);
      assert.equal(typeof job.attributes['intake.job.queue_wait_ms'], 'number');
      assert.ok(job.startNs >= request.startNs, 'the job starts after its request did');
      const waits = childrenOf(request, 'queue.wait');
      assert.ok(waits.length <= 1);
      if (waits[0]) assert.ok(waits[0].endNs <= job.startNs + 1_000_000n, 'the wait ends as the job starts');

      // The pipeline's steps under the job, each with its outcome.
      for (const step of ['spam', 'language', 'translation', 'reply']) {
        const span = only(job, `pipeline.${step}`);
        assert.equal(span.attributes['intake.step.outcome'], 'ok', step);
      }
      assert.equal(only(job, 'pipeline.spam').attributes['intake.spam.flag'], false);
      assert.equal(only(job, 'pipeline.language').attributes['intake.language'], 'en');
      assert.equal(only(job, 'pipeline.finish').attributes['intake.submission.status'], 'completed');

      // The notification: its job the processing job's child (across the queue again), the webhook's attempt its child.
      const deliver = only(job, 'job deliver');
      assert.equal(deliver.kind, CONSUMER);
      const send = only(deliver, 'delivery.send');
      assert.equal(send.kind, CLIENT);
      assert.equal(send.attributes['intake.destination.kind'], 'webhook');
      assert.equal(send.attributes['intake.delivery.outcome'], 'succeeded');
      assert.equal(send.attributes['http.response.status_code'], 200);
    }
  });
});
