// Trace context carried in job payloads, on either queue (SQLite's table, graphile-worker): the
// enqueuing span's W3C traceparent and the time the job came due. The worker that runs the job makes
// its span a child of that parent (not only a link), after a span for the time it waited in the
// queue, so one submission's trace runs from its request through the queue to its deliveries.
// Payloads carry nothing extra while tracing is off.
import { context, type Attributes, type Context } from '@opentelemetry/api';
import type { JobContext, JobHandler, JobQueue } from '../jobs/queue.ts';
import { activeTraceparent, contextOf, recordSpan, SpanKind, tracingOn, withSpan } from './tracer.ts';

/** What a job payload carries for its trace; both absent while tracing is off. */
export interface JobTrace {
  /** The span that enqueued the job (W3C trace context). */
  traceparent?: string;
  /** When the job could first start, in ms since the epoch: its wait in the queue is counted from here. */
  dueAt?: number;
}

function carried(traceparent: string | undefined, runAt?: Date): JobTrace {
  return traceparent === undefined ? {} : { traceparent, dueAt: Math.max(Date.now(), runAt?.getTime() ?? 0) };
}

/** The fields for a job enqueued from the active span (spread into its payload); `runAt` for a job due later. */
export function jobTrace(runAt?: Date): JobTrace {
  return carried(activeTraceparent(), runAt);
}

/** The context each piece of work (a submission being processed) ran in, for jobs enqueued for it later from elsewhere (a shared commit). */
const contexts = new WeakMap<object, Context>();

export function rememberTrace(work: object): void {
  if (tracingOn()) contexts.set(work, context.active());
}

/** The fields for a job enqueued for `work`, whichever span is active: its own context's, kept by rememberTrace. */
export function jobTraceOf(work: object | undefined, runAt?: Date): JobTrace {
  const from = work && contexts.get(work);
  return from ? carried(activeTraceparent(from), runAt) : {};
}

/**
 * Runs a job's work as the child of the span that enqueued it, after marking its wait in the queue
 * (a `queue.wait` span from when it was due to now, and an attribute). Without a parent, or with
 * tracing off, the work runs as it is.
 */
export function runTracedJob<T>(task: string, trace: { traceparent?: unknown; dueAt?: unknown }, job: JobContext | null, work: () => Promise<T>, attributes: Attributes = {}): Promise<T> {
  const parent = tracingOn() ? contextOf(trace.traceparent) : null;
  if (!parent) return work();
  const now = Date.now();
  const dueAt = typeof trace.dueAt === 'number' && Number.isFinite(trace.dueAt) ? trace.dueAt : null;
  const waitMs = dueAt === null ? null : Math.max(0, now - dueAt);
  if (dueAt !== null && waitMs! > 0) recordSpan('queue.wait', { 'intake.job.task': task }, parent, dueAt, now);
  return withSpan(`job ${task}`, {
    'intake.job.task': task,
    ...(job && { 'intake.job.id': job.jobId, 'intake.job.attempt': job.attempt }),
    ...(waitMs !== null && { 'intake.job.queue_wait_ms': waitMs }),
    ...attributes,
  }, work, { kind: SpanKind.CONSUMER, parent });
}

/** Each handler's job runs in its carried trace when its payload has one. */
export function tracedHandlers(handlers: Record<string, JobHandler>): Record<string, JobHandler> {
  return Object.fromEntries(Object.entries(handlers).map(([task, handler]): [string, JobHandler] => [
    task,
    (payload, job) => (typeof payload === 'object' && payload !== null && 'traceparent' in payload ? runTracedJob(task, payload, job, () => handler(payload, job)) : handler(payload, job)),
  ]));
}

/** The queue whose workers run traced handlers when tracing is on (both engines: the trace is in the payload). */
export function withJobTracing(queue: JobQueue): JobQueue {
  return { ...queue, startWorker: (handlers, options) => queue.startWorker(tracingOn() ? tracedHandlers(handlers) : handlers, options) };
}
