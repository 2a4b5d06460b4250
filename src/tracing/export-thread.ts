// The span export thread (src/tracing/thread-processor.ts starts it): ended spans from the main
// thread, as plain data, are made readable again and given to the SDK's BatchSpanProcessor (batching,
// its OTEL_BSP_* variables and its queue limit) and its OTLP/HTTP exporter, which transforms,
// serialises and sends them here instead of on the thread that answers requests.
import { parentPort, workerData } from 'node:worker_threads';
import { createTraceState, type SpanContext } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Definition, ExportReply, ExportRequest, PlainContext, PlainSpan, ThreadSettings } from './plain-span.ts';

const settings = workerData as ThreadSettings;
const processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.url }));
const port = parentPort!;

const contextOf = (plain: PlainContext): SpanContext => ({
  traceId: plain.traceId,
  spanId: plain.spanId,
  traceFlags: plain.traceFlags,
  isRemote: plain.isRemote,
  traceState: plain.traceState ? createTraceState(plain.traceState) : undefined,
});

// The scopes and resources spans name by number. The transform groups spans by resource object and
// scope name: one object per resource, made once.
const scopes = new Map<number, ReadableSpan['instrumentationScope']>();
const resources = new Map<number, Resource>();
function define(definition: Definition): void {
  if ('scope' in definition) scopes.set(definition.id, definition.scope);
  else resources.set(definition.id, resourceFromAttributes(definition.resource.attributes, { schemaUrl: definition.resource.schemaUrl }));
}

function readable(plain: PlainSpan): ReadableSpan {
  const [name, kind, traceId, spanId, traceFlags, traceState, parent, s0, s1, e0, e1, d0, d1, status, attributes, links, events,
    droppedAttributesCount, droppedEventsCount, droppedLinksCount, scope, resource] = plain;
  const context = contextOf({ traceId, spanId, traceFlags, traceState });
  return {
    name,
    kind,
    spanContext: () => context,
    parentSpanContext: parent ? contextOf(parent) : undefined,
    startTime: [s0, s1],
    endTime: [e0, e1],
    duration: [d0, d1],
    ended: true,
    status,
    attributes,
    links: links?.map((link) => ({ context: contextOf(link.context), attributes: link.attributes, droppedAttributesCount: link.droppedAttributesCount })) ?? [],
    events: events ?? [],
    resource: resources.get(resource)!,
    instrumentationScope: scopes.get(scope)!,
    droppedAttributesCount,
    droppedEventsCount,
    droppedLinksCount,
  };
}

const reply = (message: ExportReply) => port.postMessage(message);
const failed = (id: number, error: unknown) => reply({ id, ok: false, error: error instanceof Error ? error.message : String(error) });

port.on('message', (request: ExportRequest) => {
  if (request.type === 'spans') {
    // Taken into the batch processor's queue (which drops past its limit): the main thread may send more.
    for (const definition of request.definitions) define(definition);
    for (const plain of request.spans) processor.onEnd(readable(plain));
    reply({ id: request.id, ok: true });
  } else if (request.type === 'flush') {
    processor.forceFlush().then(() => reply({ id: request.id, ok: true }), (error: unknown) => failed(request.id, error));
  } else {
    processor.shutdown().then(() => reply({ id: request.id, ok: true }), (error: unknown) => failed(request.id, error));
  }
});
