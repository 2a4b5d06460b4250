// A submission's group commit as its trace shows it: attributes on the request's span (the active
// one while the service runs), not a span of its own. A second span per submission cost about as much
// again as the first (its creation, its export, and the garbage of both: docs/performance.md#tracing),
// and told nothing the request's span cannot carry: the commit is the request's last and longest part.
// `intake.commit.ms`: from the hand-over to the commit's answer; `intake.commit.wait_ms`: of it, the
// wait for its batch's write to begin (the previous batch's commit); `intake.batch.size`; `intake.commit.outcome`.
import { trace, type Span } from '@opentelemetry/api';
import { activeTraceparent, tracingOn } from './tracer.ts';

/** On the item itself (a symbol key: JSON, which hands items to the writer thread, leaves it out), not in a WeakMap the collector must trace. */
const COMMIT = Symbol('intake.commit');
interface Commit { start: number; waitMs?: number; batchSize?: number }
type Carrying = { [COMMIT]?: Commit };

const rounded = (ms: number) => Math.round(ms * 1000) / 1000;

/** The request's trace context, for the submission's processing job: its field on the stored item (nothing while off). */
export function submitTrace(): { traceparent?: string } {
  const traceparent = activeTraceparent();
  return traceparent === undefined ? {} : { traceparent };
}

export async function tracedCommit<T extends { kind: string }>(item: object, write: () => Promise<T>): Promise<T> {
  const span: Span | undefined = tracingOn() ? trace.getActiveSpan() : undefined;
  if (!span?.isRecording()) return write();
  const commit: Commit = { start: performance.now() };
  (item as Carrying)[COMMIT] = commit;
  let outcome = 'error';
  try {
    const written = await write();
    outcome = written.kind;
    return written;
  } finally {
    // One call, once the commit has answered: the span's attributes are set once, not three times.
    span.setAttributes({
      'intake.commit.outcome': outcome,
      'intake.commit.ms': rounded(performance.now() - commit.start),
      ...(commit.batchSize !== undefined && { 'intake.batch.size': commit.batchSize, 'intake.commit.wait_ms': commit.waitMs }),
    });
  }
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
