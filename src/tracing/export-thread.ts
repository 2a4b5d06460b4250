// The span export thread (src/tracing/thread-exporter.ts starts it): batches of plain spans from
// the main thread are made readable again and given to the SDK's OTLP/HTTP exporter, which
// transforms, serialises and sends them here instead of on the thread that answers requests.
import { parentPort, workerData } from 'node:worker_threads';
import { createTraceState, type SpanContext } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ExportReply, ExportRequest, PlainContext, PlainSpan, ThreadSettings } from './plain-span.ts';

const settings = workerData as ThreadSettings;
const exporter = new OTLPTraceExporter({ url: settings.url });
const port = parentPort!;

const contextOf = (plain: PlainContext): SpanContext => ({
  traceId: plain.traceId,
  spanId: plain.spanId,
  traceFlags: plain.traceFlags,
  isRemote: plain.isRemote,
  traceState: plain.traceState ? createTraceState(plain.traceState) : undefined,
});

// The transform groups spans by resource object and by scope name: one object per distinct resource.
const resources = new Map<string, Resource>();
function resourceOf(plain: PlainSpan['resource']): Resource {
  const key = JSON.stringify(plain);
  let resource = resources.get(key);
  if (!resource) {
    resource = resourceFromAttributes(plain.attributes, { schemaUrl: plain.schemaUrl });
    resources.set(key, resource);
  }
  return resource;
}

function readable(plain: PlainSpan): ReadableSpan {
  const context = contextOf(plain.context);
  return {
    name: plain.name,
    kind: plain.kind,
    spanContext: () => context,
    parentSpanContext: plain.parent ? contextOf(plain.parent) : undefined,
    startTime: plain.startTime,
    endTime: plain.endTime,
    duration: plain.duration,
    ended: true,
    status: plain.status,
    attributes: plain.attributes,
    links: plain.links.map((link) => ({ context: contextOf(link.context), attributes: link.attributes, droppedAttributesCount: link.droppedAttributesCount })),
    events: plain.events,
    resource: resourceOf(plain.resource),
    instrumentationScope: plain.scope,
    droppedAttributesCount: plain.droppedAttributesCount,
    droppedEventsCount: plain.droppedEventsCount,
    droppedLinksCount: plain.droppedLinksCount,
  };
}

const reply = (message: ExportReply) => port.postMessage(message);
const failed = (id: number, error: unknown) => reply({ id, ok: false, error: error instanceof Error ? error.message : String(error) });

port.on('message', (request: ExportRequest) => {
  if (request.type === 'export') {
    exporter.export(request.spans.map(readable), (result) => reply(result.code === 0 ? { id: request.id, ok: true } : { id: request.id, ok: false, error: result.error?.message ?? 'export failed' }));
  } else if (request.type === 'flush') {
    exporter.forceFlush().then(() => reply({ id: request.id, ok: true }), (error: unknown) => failed(request.id, error));
  } else {
    exporter.shutdown().then(() => reply({ id: request.id, ok: true }), (error: unknown) => failed(request.id, error));
  }
});
