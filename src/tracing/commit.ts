// A submission's group commit as its trace shows it: attributes on the request's span, not a span
// of its own. A second span per submission cost about as much again as the first (its creation, its
// export, and the garbage of both: docs/performance.md#tracing), and told nothing the request's span
// cannot carry: the commit is the request's last and longest part. `intake.commit.ms`: from the
// hand-over to the commit's answer; `intake.commit.wait_ms`: of it, the wait for its batch's write to
// begin (the previous batch's commit); `intake.batch.size`; `intake.commit.outcome`.
// The span is handed over by the route (requestSpan), not looked up as the active one: entering it
// as the active context for the handler cost a context and an AsyncLocalStorage frame per request
// that every promise of the request then held (docs/performance.md#tracing).
import type { Span } from '@opentelemetry/api';
import { traceparentOf, tracingOn } from './tracer.ts';

/** On the item itself (a symbol key: JSON, which hands items to the writer thread, leaves it out), not in a WeakMap the collector must trace. */
const COMMIT = Symbol('intake.commit');
interface Commit { start: number; waitMs?: number; batchSize?: number }
type Carrying = { [COMMIT]?: Commit };

const rounded = (ms: number) => Math.round(ms * 1000) / 1000;

/** The request's trace context, for the submission's processing job: its field on the stored item (nothing without a span). */
export function submitTrace(span: Span | undefined): { traceparent?: string } {
  const traceparent = span && traceparentOf(span.spanContext());
  return traceparent === undefined ? {} : { traceparent };
}

/**
 * Writes `item`, and tells the request's span what its commit was, with the submission's own ids.
 * Not an async function, and no attribute objects: this runs for every traced submission, and each
 * object it makes is garbage the collector pays for (docs/performance.md#tracing).
 */
export function tracedCommit<T extends { kind: string }>(span: Span | undefined, item: object, formId: string, submissionId: string, write: () => Promise<T>): Promise<T> {
  if (!span?.isRecording()) return write();
  const commit: Commit = { start: performance.now() };
  (item as Carrying)[COMMIT] = commit;
  const ended = (outcome: string) => {
    span.setAttribute('intake.form.id', formId);
    span.setAttribute('intake.submission.id', submissionId);
    span.setAttribute('intake.commit.outcome', outcome);
    span.setAttribute('intake.commit.ms', rounded(performance.now() - commit.start));
    if (commit.batchSize !== undefined) {
      span.setAttribute('intake.batch.size', commit.batchSize);
      span.setAttribute('intake.commit.wait_ms', commit.waitMs!);
    }
  };
  return write().then((written) => {
    ended(written.kind);
    return written;
  }, (error: unknown) => {
    ended('error');
    throw error;
  });
}

/** Called as a batch's write begins, with its items. */
export function batchStarted(items: object[]): void {
  if (!tracingOn()) return;
  const now = performance.now();
  for (const item of items) {
    const commit = (item as Carrying)[COMMIT];
    if (commit) {
      commit.batchSize = items.length;
      commit.waitMs = rounded(now - commit.start);
    }
  }
}
