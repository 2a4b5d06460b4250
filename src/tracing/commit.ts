// A submission's group commit as its trace shows it: `submission.commit`, a child of the request's
// span, from the hand-over to the commit's answer, with the size of the batch it was stored in and
// when that batch's write began (the time before is the wait for the previous batch to commit).
import type { Span } from '@opentelemetry/api';
import { activeTraceparent, tracingOn, withSpan } from './tracer.ts';

const commits = new WeakMap<object, Span>();

/** The request's trace context, for the submission's processing job: its field on the stored item (nothing while off). */
export function submitTrace(): { traceparent?: string } {
  const traceparent = activeTraceparent();
  return traceparent === undefined ? {} : { traceparent };
}

export function tracedCommit<T extends { kind: string }>(item: object, write: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return write();
  return withSpan('submission.commit', undefined, async (span) => {
    commits.set(item, span);
    const outcome = await write();
    span.setAttribute('intake.commit.outcome', outcome.kind);
    return outcome;
  });
}

/** Called as a batch's write begins, with its items. */
export function batchStarted(items: object[]): void {
  if (!tracingOn()) return;
  for (const item of items) {
    const span = commits.get(item);
    span?.setAttribute('intake.batch.size', items.length);
    span?.addEvent('batch.write');
  }
}
