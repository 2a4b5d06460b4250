// What crosses between the main thread and the span export thread (src/tracing/thread-exporter.ts,
// src/tracing/export-thread.ts): spans as plain, cloneable data, and the requests and replies.
import type { Attributes, HrTime, SpanKind, SpanStatus } from '@opentelemetry/api';

export interface PlainContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  /** W3C tracestate, serialised. */
  traceState?: string;
  isRemote?: boolean;
}

export interface PlainSpan {
  name: string;
  kind: SpanKind;
  context: PlainContext;
  parent?: PlainContext;
  startTime: HrTime;
  endTime: HrTime;
  duration: HrTime;
  status: SpanStatus;
  attributes: Attributes;
  links: Array<{ context: PlainContext; attributes?: Attributes; droppedAttributesCount?: number }>;
  events: Array<{ name: string; time: HrTime; attributes?: Attributes; droppedAttributesCount?: number }>;
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
  scope: { name: string; version?: string; schemaUrl?: string };
  /** The provider's resource: the same for every span of a process. */
  resource: { attributes: Attributes; schemaUrl?: string };
}

/** Where the thread sends spans. */
export interface ThreadSettings {
  url: string;
}

export type ExportRequest =
  | { id: number; type: 'export'; spans: PlainSpan[] }
  | { id: number; type: 'flush' }
  | { id: number; type: 'shutdown' };

export interface ExportReply {
  id: number;
  ok: boolean;
  error?: string;
}
