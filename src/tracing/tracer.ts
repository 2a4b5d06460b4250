// The spans Intake makes, through @opentelemetry/api alone. Until setup.ts hands over a tracer (only
// when OTEL_EXPORTER_OTLP_ENDPOINT is set), every helper here runs its work as it is, with no span
// made and no context looked up: tracing off costs a null check.
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';

let tracer: Tracer | null = null;

/** What withSpan's work gets when tracing is off: the API's own span that records nothing. */
const NOTHING: Span = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });

export const tracingOn = (): boolean => tracer !== null;

/** setup.ts, once the SDK is started; null again in tests that stop it. */
export function useTracer(next: Tracer | null): void {
  tracer = next;
}

export interface SpanOptions {
  kind?: SpanKind;
  /** The parent, when it is not the active context (a job's, carried in its payload). */
  parent?: Context;
  startTime?: number;
}

/**
 * Runs `work` inside a new span, the child of the active one (or of `options.parent`); the span ends
 * when the work settles, marked as an error if it threw. Names say what the work is, never whose:
 * ids go in attributes.
 */
export async function withSpan<T>(name: string, attributes: Attributes | undefined, work: (span: Span) => Promise<T> | T, options: SpanOptions = {}): Promise<T> {
  if (tracer === null) return work(NOTHING);
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes, startTime: options.startTime }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** A span started now and ended by the caller (a request's, whose end is another hook's). */
export function startSpan(name: string, attributes: Attributes, options: SpanOptions = {}): Span | null {
  if (tracer === null) return null;
  return tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes, startTime: options.startTime }, options.parent ?? context.active());
}

/** A span that only marks a stretch of time already over (a job's wait in the queue). */
export function recordSpan(name: string, attributes: Attributes, parent: Context, startTime: number, endTime: number): void {
  tracer?.startSpan(name, { attributes, startTime }, parent).end(endTime);
}

/** Adds attributes to the active span (the submit request's, a job's), if tracing is on. */
export function annotate(attributes: Attributes): void {
  if (tracer !== null) trace.getActiveSpan()?.setAttributes(attributes);
}

export function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  if (error instanceof Error) span.recordException(error);
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C traceparent of the active span; undefined when tracing is off or no span is active. */
export function activeTraceparent(from: Context = context.active()): string | undefined {
  if (tracer === null) return undefined;
  return traceparentOf(trace.getSpanContext(from));
}

/** The W3C traceparent naming a span as the parent; undefined for none or an invalid one. */
export function traceparentOf(span: SpanContext | undefined): string | undefined {
  if (!span || !trace.isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-${span.traceFlags.toString(16).padStart(2, '0')}`;
}

/** The remote parent a W3C traceparent names; null for anything else (a payload is data, not trusted to be well formed). */
export function contextOf(traceparent: unknown): Context | null {
  if (typeof traceparent !== 'string') return null;
  const match = TRACEPARENT.exec(traceparent);
  if (!match) return null;
  const spanContext = { traceId: match[1]!, spanId: match[2]!, traceFlags: parseInt(match[3]!, 16), isRemote: true };
  return trace.isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : null;
}

export { SpanKind };
