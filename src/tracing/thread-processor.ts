// A span processor that hands each ended span to a worker thread (src/tracing/export-thread.ts),
// where the SDK's own BatchSpanProcessor batches them and its OTLP/HTTP exporter turns them into
// OTLP/JSON and sends them. Measured on the submit path (docs/performance.md#tracing), the export on
// the main thread cost most (the OTLP tree, its JSON, their garbage); with the export in the thread
// but the batching still here, what cost most was the garbage collector: the BatchSpanProcessor held
// every ended span (the SDK's span object and all it points to) until 512 had gathered and the
// thread had sent them, long enough under load for each to be copied by scavenges and promoted to the
// old generation. Here an ended span is copied at once into a plain object and let go; the plain
// copies are posted by the few dozen, so they die young too.
import { Worker } from 'node:worker_threads';
import type { SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Definition, ExportReply, ExportRequest, PlainContext, PlainSpan, ThreadSettings } from './plain-span.ts';

/** Omit, distributed over each member of a union. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Spans posted at a time: small enough that a batch's copies die before a scavenge, large enough that messages stay few. */
const HANDOFF = 64;
/** The longest an ended span waits here before it is posted, when spans are few. */
const HANDOFF_MS = 200;

/** Numbers each scope and resource the first time a span names it, and keeps its definition for the next hand-off. */
interface Numbering {
  scope(scope: ReadableSpan['instrumentationScope']): number;
  resource(resource: ReadableSpan['resource']): number;
}

const plainContext = (context: SpanContext): PlainContext => ({ traceId: context.traceId, spanId: context.spanId, traceFlags: context.traceFlags, traceState: context.traceState?.serialize(), isRemote: context.isRemote });

/** An ended span as a flat tuple: what the OTLP transform reads, and nothing that cannot be cloned. */
export function toPlainSpan(span: ReadableSpan, numberOf: Numbering): PlainSpan {
  const context = span.spanContext();
  const { startTime, endTime, duration, instrumentationScope: scope, resource } = span;
  return [
    span.name, span.kind, context.traceId, context.spanId, context.traceFlags, context.traceState?.serialize(),
    span.parentSpanContext && plainContext(span.parentSpanContext),
    startTime[0], startTime[1], endTime[0], endTime[1], duration[0], duration[1],
    span.status,
    span.attributes,
    span.links.length === 0 ? undefined : span.links.map((link) => ({ context: plainContext(link.context), attributes: link.attributes, droppedAttributesCount: link.droppedAttributesCount })),
    span.events.length === 0 ? undefined : span.events,
    span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount,
    numberOf.scope(scope),
    numberOf.resource(resource),
  ];
}

/**
 * `maxQueued`: spans here and in the thread's hands not yet taken into its BatchSpanProcessor, at
 * most (OTEL_BSP_MAX_QUEUE_SIZE's number): past it new spans are dropped, as the SDK's processor
 * drops them, never the process slowed or its memory grown.
 */
export function threadProcessor(settings: ThreadSettings, maxQueued: number): SpanProcessor {
  const worker = new Worker(new URL('./export-thread.ts', import.meta.url), { workerData: settings });
  // An idle thread never keeps a process alive; `shutdown` (on SIGTERM) sends the last spans.
  worker.unref();
  const waiting = new Map<number, { spans: number; done: (reply: ExportReply) => void }>();
  let next = 0;
  let broken: Error | null = null;
  let pending: PlainSpan[] = [];
  let posted = 0;
  let timer: NodeJS.Timeout | undefined;
  // Per thread: a new thread (tracing started again) has seen no definition yet.
  const numbers = new WeakMap<object, number>();
  let count = 0;
  let definitions: Definition[] = [];
  const numbered = (object: object, definition: (id: number) => Definition): number => {
    let id = numbers.get(object);
    if (id === undefined) {
      id = count++;
      numbers.set(object, id);
      definitions.push(definition(id));
    }
    return id;
  };
  const numberOf: Numbering = {
    scope: (scope) => numbers.get(scope) ?? numbered(scope, (id) => ({ id, scope: { name: scope.name, version: scope.version, schemaUrl: scope.schemaUrl } })),
    resource: (resource) => numbers.get(resource) ?? numbered(resource, (id) => ({ id, resource: { attributes: resource.attributes, schemaUrl: resource.schemaUrl } })),
  };

  const settleAll = (error: Error) => {
    broken = error;
    for (const { done } of waiting.values()) done({ id: -1, ok: false, error: error.message });
    waiting.clear();
    posted = 0;
  };
  worker.on('message', (reply: ExportReply) => {
    const asked = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if (asked) {
      posted -= asked.spans;
      asked.done(reply);
    }
  });
  worker.on('error', settleAll);
  worker.on('exit', (code) => settleAll(new Error(`the span export thread exited (${code})`)));

  const ask = (request: WithoutId<ExportRequest>, spans = 0) =>
    new Promise<ExportReply>((resolve) => {
      if (broken) return resolve({ id: -1, ok: false, error: broken.message });
      const id = next++;
      // A request waiting for its answer keeps the process alive, as the SDK's own export would.
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { spans, done: resolve });
      posted += spans;
      worker.postMessage({ ...request, id });
    });

  const handOff = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const spans = pending;
    pending = [];
    const defined = definitions;
    definitions = [];
    void ask({ type: 'spans', definitions: defined, spans }, spans.length);
  };
  const failure = (reply: ExportReply) => {
    if (!reply.ok) throw new Error(reply.error ?? 'the span export thread failed');
  };

  return {
    onStart() {},
    onEnd(span) {
      // Unsampled spans are never exported (the SDK's batch processor skips them too).
      if ((span.spanContext().traceFlags & 1) === 0 || broken) return;
      if (pending.length + posted >= maxQueued) return;
      pending.push(toPlainSpan(span, numberOf));
      if (pending.length >= HANDOFF) handOff();
      else if (timer === undefined) {
        timer = setTimeout(handOff, HANDOFF_MS);
        timer.unref();
      }
    },
    async forceFlush() {
      handOff();
      failure(await ask({ type: 'flush' }));
    },
    async shutdown() {
      handOff();
      const reply = await ask({ type: 'shutdown' });
      await worker.terminate();
      failure(reply);
    },
  };
}
