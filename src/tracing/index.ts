// OpenTelemetry traces (docs/tracing.md): optional, on with OTEL_EXPORTER_OTLP_ENDPOINT. setup.ts
// loads the SDK; everything else here uses only @opentelemetry/api and does nothing while it is off.
export { annotate, SpanKind, tracingOn, withSpan, type SpanOptions } from './tracer.ts';
export { jobTrace, jobTraceOf, rememberTrace, runTracedJob, withJobTracing, type JobTrace } from './jobs.ts';
export { batchStarted, submitTrace, tracedCommit } from './commit.ts';
export { requestSpan, useTracing, type RequestSpan } from './http.ts';
export { startTracing, type Tracing } from './setup.ts';
