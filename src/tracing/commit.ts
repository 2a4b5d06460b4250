// A submission's group commit as its trace shows it: `submission.commit`, a child of the request's
// span, from the hand-over to the commit's answer, with the size of the batch it was stored in and
// how long it waited for that batch's write to begin (the previous batch's commit). The span never
// becomes the active one (nothing runs under it), which spares a context switch on the submit path.
import type { Span } from '@opentelemetry/api';
import { activeTraceparent, failed, startSpan, tracingOn } from './tracer.ts';

/** On the item itself (a symbol key: JSON, which hands items to the writer thread, leaves it out), not in a WeakMap the collector must trace. */
const COMMIT = Symbol('intake.commit');
type Carrying = { [COMMIT]?: { span: Span; start: number } };

/** The request's trace context, for the submission's processing job: its field on the stored item (nothing while off). */
export function submitTrace(): { traceparent?: string } {
  const traceparent = activeTraceparent();
  return traceparent === undefined ? {} : { traceparent };
}

export async function tracedCommit<T extends { kind: string }>(item: object, write: () => Promise<T>): Promise<T> {
  const span = tracingOn() ? startSpan('submission.commit', {}) : null;
  if (!span) return write();
  (item as Carrying)[COMMIT] = { span, start: performance.now() };
  try {
    const outcome = await write();
    span.setAttribute('intake.commit.outcome', outcome.kind);
    return outcome;
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Called as a batch's write begins, with its items. */
export function batchStarted(items: object[]): void {
  if (!tracingOn()) return;
  const now = performance.now();
  for (const item of items) {
    const commit = (item as Carrying)[COMMIT];
    commit?.span.setAttributes({ 'intake.batch.size': items.length, 'intake.commit.wait_ms': Math.round((now - commit.start) * 1000) / 1000 });
  }
}
