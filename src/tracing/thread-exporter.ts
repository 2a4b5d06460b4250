// A span exporter that hands each batch to a worker thread, where the SDK's own OTLP/HTTP exporter
// turns it into OTLP/JSON and sends it (src/tracing/export-thread.ts). Measured on the submit path,
// most of tracing's cost was that export on the main thread: building the OTLP tree, stringifying
// it, and the garbage both leave behind (docs/performance.md#tracing). Here the main thread only
// copies each ended span's fields into a plain object; the batch crosses by structured clone.
import { Worker } from 'node:worker_threads';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ExportReply, ExportRequest, PlainSpan, ThreadSettings } from './plain-span.ts';

/** Omit, distributed over each member of a union. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];
// ExportResultCode from @opentelemetry/core, which the project does not declare: 0 success, 1 failed.
const SUCCESS = 0;
const FAILED = 1;

const resources = new WeakMap<object, PlainSpan['resource']>();
function resourceOf(span: ReadableSpan): PlainSpan['resource'] {
  let plain = resources.get(span.resource);
  if (!plain) {
    plain = { attributes: span.resource.attributes, schemaUrl: span.resource.schemaUrl };
    resources.set(span.resource, plain);
  }
  return plain;
}

/** An ended span as plain data: what the OTLP transform reads, and nothing that cannot be cloned. */
export function toPlainSpan(span: ReadableSpan): PlainSpan {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  return {
    name: span.name,
    kind: span.kind,
    context: { traceId: context.traceId, spanId: context.spanId, traceFlags: context.traceFlags, traceState: context.traceState?.serialize() },
    parent: parent ? { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.traceFlags, isRemote: parent.isRemote } : undefined,
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({
      context: { traceId: link.context.traceId, spanId: link.context.spanId, traceFlags: link.context.traceFlags, traceState: link.context.traceState?.serialize(), isRemote: link.context.isRemote },
      attributes: link.attributes,
      droppedAttributesCount: link.droppedAttributesCount,
    })),
    events: span.events,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
    scope: { name: span.instrumentationScope.name, version: span.instrumentationScope.version, schemaUrl: span.instrumentationScope.schemaUrl },
    // One object for every span of the provider: structured clone copies it once per batch.
    resource: resourceOf(span),
  };
}

export function threadExporter(settings: ThreadSettings): SpanExporter {
  const worker = new Worker(new URL('./export-thread.ts', import.meta.url), { workerData: settings });
  // An idle thread never keeps a process alive; `shutdown` (on SIGTERM) sends the last spans.
  worker.unref();
  const pending = new Map<number, (result: ExportResult) => void>();
  let next = 0;
  let broken: Error | null = null;

  const settleAll = (error: Error) => {
    broken = error;
    for (const done of pending.values()) done({ code: FAILED, error });
    pending.clear();
  };
  worker.on('message', (reply: ExportReply) => {
    const done = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    done?.(reply.ok ? { code: SUCCESS } : { code: FAILED, error: new Error(reply.error ?? 'export failed') });
  });
  worker.on('error', settleAll);
  worker.on('exit', (code) => settleAll(new Error(`the span export thread exited (${code})`)));

  const ask = (request: WithoutId<ExportRequest>) =>
    new Promise<ExportResult>((resolve) => {
      if (broken) return resolve({ code: FAILED, error: broken });
      const id = next++;
      // A request waiting for its answer keeps the process alive, as the SDK's own export would.
      if (pending.size === 0) worker.ref();
      pending.set(id, resolve);
      worker.postMessage({ ...request, id });
    });

  return {
    export(spans, resultCallback) {
      ask({ type: 'export', spans: spans.map(toPlainSpan) }).then(resultCallback);
    },
    async forceFlush() {
      await ask({ type: 'flush' });
    },
    async shutdown() {
      await ask({ type: 'shutdown' });
      await worker.terminate();
    },
  };
}
