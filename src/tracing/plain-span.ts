// What crosses between the main thread and the span export thread (src/tracing/thread-processor.ts,
// src/tracing/export-thread.ts): spans as flat, cloneable tuples, and the requests and replies.
// A tuple, not an object: structured clone writes every property name of every object it copies,
// and posting spans as objects (about 30 properties in 8 objects each) cost the main thread 10 to
// 14 µs per span under load, half of what tracing then cost the submit path; the tuple of numbers and
// strings with the span's own attributes object costs about half as much (docs/performance.md#tracing).
import type { Attributes, SpanKind, SpanStatus } from '@opentelemetry/api';

export interface PlainContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  /** W3C tracestate, serialised. */
  traceState?: string;
  isRemote?: boolean;
}

/** A span's scope and resource, sent once, then named by number in its spans. */
export type Definition =
  | { id: number; scope: { name: string; version?: string; schemaUrl?: string } }
  | { id: number; resource: { attributes: Attributes; schemaUrl?: string } };

/** An ended span. Times are the SDK's HrTime pairs (seconds, nanoseconds), flattened. */
export type PlainSpan = [
  name: string,
  kind: SpanKind,
  traceId: string,
  spanId: string,
  traceFlags: number,
  traceState: string | undefined,
  parent: PlainContext | undefined,
  startSeconds: number, startNanos: number,
  endSeconds: number, endNanos: number,
  durationSeconds: number, durationNanos: number,
  status: SpanStatus,
  attributes: Attributes,
  /** Empty for almost every span; `undefined` stands for none. */
  links: Array<{ context: PlainContext; attributes?: Attributes; droppedAttributesCount?: number }> | undefined,
  events: Array<{ name: string; time: [number, number]; attributes?: Attributes; droppedAttributesCount?: number }> | undefined,
  droppedAttributesCount: number,
  droppedEventsCount: number,
  droppedLinksCount: number,
  scope: number,
  resource: number,
];

/** Where the thread sends spans. */
export interface ThreadSettings {
  url: string;
}

export type ExportRequest =
  /** Ended spans, for the thread's batch processor, after the scopes and resources they name that it has not seen yet. */
  | { id: number; type: 'spans'; definitions: Definition[]; spans: PlainSpan[] }
  | { id: number; type: 'flush' }
  | { id: number; type: 'shutdown' };

export interface ExportReply {
  id: number;
  ok: boolean;
  error?: string;
}
