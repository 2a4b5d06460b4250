// The span export thread (src/tracing/thread-exporter.ts) sends what the SDK's exporter would have
// sent from the main thread: a span crosses as plain data, so every part the OTLP transform reads must
// survive the crossing. One span with a parent, attributes of each kind, an event, a link, an error
// status and a tracestate goes to a loopback collector, and its OTLP/JSON is checked part by part.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { context, SpanKind, SpanStatusCode, trace, TraceFlags, createTraceState } from '@opentelemetry/api';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { startTracing, type Tracing } from '../src/tracing/setup.ts';
import { startSpan } from '../src/tracing/tracer.ts';

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values: AnyValue[] } };
type KeyValue = { key: string; value: AnyValue };
interface OtlpSpan {
  traceId: string; spanId: string; parentSpanId?: string; traceState?: string; name: string; kind: number;
  attributes: KeyValue[]; events: Array<{ name: string; attributes: KeyValue[]; timeUnixNano: string }>;
  links: Array<{ traceId: string; spanId: string; attributes: KeyValue[] }>; status: { code: number; message?: string };
}

const PARENT = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: createTraceState('vendor=abc') };
const LINKED = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

describe('the span export thread', () => {
  let collector: FakeProvider;
  let tracing: Tracing | null;
  before(async () => {
    collector = await startFakeProvider(() => ({ status: 200, body: {} }));
    tracing = await startTracing({ endpoint: collector.url, serviceName: 'intake-export-thread', maxQueuedSpans: 2048 }, 'test');
  });
  after(async () => {
    await tracing?.shutdown();
    await collector?.close();
  });

  it('sends a span with its parent, attributes, event, link, status and resource intact', async () => {
    const tracer = trace.getTracer('intake');
    const parent = trace.setSpanContext(context.active(), PARENT);
    const span = tracer.startSpan('submission.test', {
      kind: SpanKind.CONSUMER,
      attributes: { 'a.string': 'Ünïcode “quoted”', 'a.int': 42, 'a.double': 1.5, 'a.bool': true, 'a.list': ['x', 'y'] },
      links: [{ context: LINKED, attributes: { 'link.why': 'batch' } }],
    }, parent);
    span.addEvent('retry', { attempt: 2 });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'receiver answered 503' });
    span.end();
    await tracing!.flush();

    const bodies = collector.requests.map((r) => r.body as { resourceSpans: Array<{ resource: { attributes: KeyValue[] }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }> });
    const [resourceSpans] = bodies.flatMap((b) => b.resourceSpans);
    assert.ok(resourceSpans, 'the collector got the span');
    const resource = Object.fromEntries(resourceSpans.resource.attributes.map((a) => [a.key, a.value.stringValue]));
    assert.equal(resource['service.name'], 'intake-export-thread');
    assert.equal(resource['intake.process'], 'test');
    const [scope] = resourceSpans.scopeSpans;
    assert.equal(scope!.scope.name, 'intake');
    const [sent] = scope!.spans;
    assert.ok(sent);
    assert.equal(sent.name, 'submission.test');
    assert.equal(sent.kind, SpanKind.CONSUMER + 1, "OTLP's kinds are the API's plus one");
    assert.equal(sent.traceId, PARENT.traceId);
    assert.equal(sent.parentSpanId, PARENT.spanId);
    assert.equal(sent.traceState, 'vendor=abc');
    const attributes = Object.fromEntries(sent.attributes.map((a) => [a.key, a.value]));
    assert.deepEqual(attributes['a.string'], { stringValue: 'Ünïcode “quoted”' });
    assert.equal(Number(attributes['a.int']!.intValue), 42);
    assert.deepEqual(attributes['a.double'], { doubleValue: 1.5 });
    assert.deepEqual(attributes['a.bool'], { boolValue: true });
    assert.deepEqual(attributes['a.list']!.arrayValue!.values.map((v) => v.stringValue), ['x', 'y']);
    assert.equal(sent.events.length, 1);
    assert.equal(sent.events[0]!.name, 'retry');
    assert.equal(Number(sent.events[0]!.attributes[0]!.value.intValue), 2);
    assert.deepEqual(sent.links.map((l) => [l.traceId, l.spanId, l.attributes[0]!.value.stringValue]), [[LINKED.traceId, LINKED.spanId, 'batch']]);
    assert.deepEqual(sent.status, { code: SpanStatusCode.ERROR, message: 'receiver answered 503' });
  });
});

// The hand-off to the thread (src/tracing/thread-processor.ts): spans go 64 at a time or after a
// short wait when fewer end, and OTEL_BSP_MAX_QUEUE_SIZE's number bounds those on their way.
describe('the hand-off to the span export thread', () => {
  let collector: FakeProvider;
  let tracing: Tracing | null;
  const scheduleDelay = process.env.OTEL_BSP_SCHEDULE_DELAY;
  const spansReceived = () => collector.requests
    .flatMap((r) => (r.body as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }).resourceSpans)
    .flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
  before(async () => {
    collector = await startFakeProvider(() => ({ status: 200, body: {} }));
    // The thread's batch processor sends soon after it is handed a span (5 s by default).
    process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
    tracing = await startTracing({ endpoint: collector.url, serviceName: 'intake-hand-off', maxQueuedSpans: 100 }, 'test');
  });
  after(async () => {
    await tracing?.shutdown();
    await collector?.close();
    if (scheduleDelay === undefined) delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    else process.env.OTEL_BSP_SCHEDULE_DELAY = scheduleDelay;
  });

  it('hands over a lone span without a flush, after its short wait', async () => {
    startSpan('lone.span', { n: 1 })!.end();
    const deadline = Date.now() + 10_000;
    while (spansReceived().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.deepEqual(spansReceived().map((s) => s.name), ['lone.span']);
  });

  it('drops the spans past the queue limit when they end faster than the thread takes them', async () => {
    const already = spansReceived().length;
    // Ended in one turn of the event loop: the thread cannot acknowledge any before the limit is reached.
    for (let n = 0; n < 300; n++) startSpan('burst.span', { n })!.end();
    await tracing!.flush();
    const sent = spansReceived().slice(already);
    assert.equal(sent.length, 100, 'the first 100 (the limit) were sent, the rest dropped');
    const numbers = sent.map((s) => Number(s.attributes.find((a) => a.key === 'n')!.value.intValue)).sort((a, b) => a - b);
    assert.deepEqual(numbers, Array.from({ length: 100 }, (_, n) => n), 'the first ones kept, later ones dropped');
    // Once the thread has taken them, new spans are accepted again.
    startSpan('after.burst', {})!.end();
    await tracing!.flush();
    assert.equal(spansReceived().at(-1)!.name, 'after.burst');
  });
});
