// Tracing off costs nothing: without OTEL_EXPORTER_OTLP_ENDPOINT a submission goes all the way to
// its webhook and not one OpenTelemetry module but @opentelemetry/api is loaded (every module this
// process resolves is watched from before the app's first import). Then, in the same process, tracing
// is started (the watch now sees the SDK: it can tell) and submissions sent together are stored in one
// group commit and processed by one batch job, each still in its own trace: the job's payload carries
// every submission's parent, so each processing span is the child of its own submit request.
import assert from 'node:assert/strict';
import { registerHooks } from 'node:module';
import { after, before, describe, it } from 'node:test';

const resolved = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    if (result.url.includes('/@opentelemetry/')) resolved.add(/\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(result.url)?.[1] ?? result.url);
    return result;
  },
});

// Imported only now, so that the watch sees everything they load.
const { startFakeProvider } = await import('./fake-provider.ts');
const { spansOf, SERVER } = await import('./otlp.ts');
type Span = import('./otlp.ts').Span;
const { bearer, createForm, startPipelineApp, submit, waitFor } = await import('./pipeline-helpers.ts');
const { startTracing } = await import('../src/tracing/setup.ts');

type FakeProvider = Awaited<ReturnType<typeof startFakeProvider>>;
type PipelineApp = Awaited<ReturnType<typeof startPipelineApp>>;

const MESSAGE = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Could you send me the price list for garden chairs?' };

describe('tracing in one process', () => {
  let hooks: FakeProvider;
  let collector: FakeProvider;
  before(async () => {
    let flaky = 0;
    // '/flaky' answers 503 the first time: its delivery is retried.
    hooks = await startFakeProvider((request) => ({ status: request.path === '/flaky' && flaky++ === 0 ? 503 : 200, body: { ok: true } }));
    collector = await startFakeProvider(() => ({ status: 200, body: {} }));
  });
  after(async () => {
    await hooks?.close();
    await collector?.close();
  });

  async function formWithWebhook(t: PipelineApp, path: string) {
    const key = await t.createKey();
    const form = await createForm(t, key);
    const created = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: { type: 'webhook', url: `${hooks.url}${path}` } });
    assert.equal(created.statusCode, 201, created.body);
    return form;
  }

  it('loads no SDK module when OTEL_EXPORTER_OTLP_ENDPOINT is unset', async () => {
    const t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1' });
    try {
      assert.equal(t.config.tracing, null);
      assert.equal(await startTracing(t.config.tracing, 'test'), null);
      const form = await formWithWebhook(t, '/off');
      await submit(t, form.endpoint, MESSAGE);
      await waitFor('the webhook', () => hooks.requests.find((r) => r.path === '/off'));
    } finally {
      await t.close();
    }
    assert.deepEqual([...resolved], ['@opentelemetry/api'], 'only the API, whose calls are no-ops');
    assert.equal(collector.requests.length, 0);
  });

  it('keeps each submission of a batch job in its own trace, the child of its own request', async () => {
    const tracing = await startTracing({ endpoint: collector.url, serviceName: 'intake-in-process', maxQueuedSpans: 2048 }, 'test');
    assert.ok(tracing);
    // The exporter itself is loaded by the span export thread (src/tracing/export-thread.ts), out of this thread's sight.
    assert.ok(resolved.has('@opentelemetry/sdk-trace-node'), 'the watch sees the SDK once it is loaded');
    // Tracing is on before the app is built, as `intake serve` starts it. On SQLite the batch is
    // stored by the writer thread, which builds the jobs from the items' traceparents there.
    const t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: '127.0.0.1', INTAKE_SQLITE_WRITER_THREAD: 'true', INTAKE_DELIVERY_RETRY_SCHEDULE: '20ms' });
    let ids: string[];
    let retried: string;
    try {
      const form = await formWithWebhook(t, '/on');
      // Sent together: they reach the group commit in one turn and share a batch, and its one processing job.
      ids = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(t, form.endpoint, { ...MESSAGE, name: `Visitor ${i}` })));
      await waitFor('every webhook', () => (hooks.requests.filter((r) => r.path === '/on').length === ids.length ? true : undefined));
      retried = await submit(t, (await formWithWebhook(t, '/flaky')).endpoint, MESSAGE);
      await waitFor('the retried webhook', () => (hooks.requests.filter((r) => r.path === '/flaky').length === 2 ? true : undefined));
    } finally {
      await t.close();
      await tracing.shutdown();
    }

    const spans = spansOf(collector);
    const requests = ids.map((id) => spans.find((s) => s.kind === SERVER && s.attributes['intake.submission.id'] === id)!);
    assert.ok(requests.every(Boolean), 'a request span for each submission');
    assert.equal(new Set(requests.map((r) => r.traceId)).size, ids.length, 'one trace per submission');
    const batchJobs = spans.filter((s) => s.name === 'job process_submissions');
    assert.ok(batchJobs.length >= 2, `submissions processed by a batch job (${spans.filter((s) => s.name.startsWith('job process')).map((s) => s.name)})`);
    assert.ok(requests.some((s) => Number(s.attributes['intake.batch.size']) > 1), 'a group commit of several');
    for (const [i, id] of ids.entries()) {
      const request = requests[i]!;
      const job = spans.find((s) => s.name.startsWith('job process') && s.attributes['intake.submission.id'] === id);
      assert.ok(job, `the processing span of ${id}`);
      assert.equal(job.traceId, request.traceId);
      assert.equal(job.parent, request.spanId, 'the child of its own request, not of the batch\'s first');
      assert.ok(spans.some((s) => s.name === 'job deliver' && s.parent === job.spanId), 'its delivery job under it');
      // Six deliveries to one destination: past its cap of two at once, a job is put back for later,
      // from (and so under) the delivery job that found it busy.
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      const ancestors = (span: Span) => {
        const chain: Span[] = [];
        for (let s = span.parent ? byId.get(span.parent) : undefined; s; s = s.parent ? byId.get(s.parent) : undefined) chain.push(s);
        return chain;
      };
      const sent = spans.find((s) => s.traceId === request.traceId && s.name === 'delivery.send' && s.attributes['intake.delivery.outcome'] === 'succeeded');
      assert.ok(sent, 'its webhook sent');
      const chain = ancestors(sent);
      assert.equal(chain[0]?.name, 'job deliver');
      assert.ok(chain.includes(job) && chain.at(-1) === request, 'under its processing job and its request');
    }

    // A retry is enqueued from the job that decided it: the second attempt's job is the first's child, in the same trace.
    const attempts = spans.filter((s) => s.name === 'delivery.send' && s.attributes['intake.destination.kind'] === 'webhook')
      .filter((s) => spans.find((r) => r.kind === SERVER && r.attributes['intake.submission.id'] === retried)?.traceId === s.traceId);
    assert.deepEqual(attempts.map((s) => [s.attributes['intake.delivery.attempt'], s.attributes['intake.delivery.outcome']]).sort(), [[1, 'retrying'], [2, 'succeeded']]);
    const [first, second] = [...attempts].sort((a, b) => Number(a.attributes['intake.delivery.attempt']) - Number(b.attributes['intake.delivery.attempt']));
    const firstJob = spans.find((s) => s.spanId === first!.parent)!;
    const secondJob = spans.find((s) => s.spanId === second!.parent)!;
    assert.equal(secondJob.parent, firstJob.spanId, 'the retry under the attempt that scheduled it');
    assert.equal(first!.attributes['http.response.status_code'], 503);
  });
});
