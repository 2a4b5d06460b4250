// When the pipeline records a submission's final status, the deliveries to every destination that
// wants it are created, and their jobs enqueued, in that same transaction: a crash can lose neither.
import { randomBytes, randomUUID } from 'node:crypto';
import type { JobQueue } from '../../jobs/queue.ts';
import type { OnBatchFinished, Work } from '../../pipeline/store.ts';
import { readSubmissions } from '../../submissions/store.ts';
import type { Transaction } from 'kysely';
import type { Tables } from '../../db/tables.ts';
import type { Destination, DestinationStore } from '../destinations/store.ts';
import type { SubmissionEvent } from '../event.ts';
import type { DeliveryStore, NewDelivery } from './store.ts';
import { DELIVER } from './tasks.ts';
import { submissionLink } from '../../dashboard/links.ts';
import { jobTraceOf } from '../../tracing/index.ts';

/** Deliveries per statement: a few thousand bound parameters at most. */
const SLICE = 500;

export function newEventId(): string {
  return `evt_${randomBytes(16).toString('base64url')}`;
}

export function enqueueDeliveries(deps: { destinations: DestinationStore; deliveries: DeliveryStore; queue: JobQueue; baseUrl: string; clock?: () => Date }): OnBatchFinished {
  const clock = deps.clock ?? (() => new Date());
  // The pipeline records final statuses in batches, one transaction each: a form's destinations are
  // read once per transaction, not once per submission (nothing in it changes them).
  const byTransaction = new WeakMap<object, Map<string, Promise<Destination[]>>>();
  const enabledIn = (tx: Transaction<Tables>, formId: string) => {
    let forms = byTransaction.get(tx);
    if (!forms) byTransaction.set(tx, (forms = new Map()));
    let enabled = forms.get(formId);
    if (!enabled) forms.set(formId, (enabled = deps.destinations.enabled(tx, formId)));
    return enabled;
  };
  return async (tx, finished) => {
    // Most forms have no destination: look for them before reading the submissions back.
    const wanting: Array<{ work: Work; enabled: Destination[] }> = [];
    for (const { work } of finished) {
      const enabled = await enabledIn(tx, work.form.id);
      if (enabled.length > 0) wanting.push({ work, enabled });
    }
    if (wanting.length === 0) return;
    const ids = wanting.map(({ work }) => work.submission.id);
    const submissions = await readSubmissions(tx, ids);
    // A submission finishes twice when a spam correction resumed it: only the destinations it has not reached yet are told.
    const reached = await deps.deliveries.destinationsReached(tx, ids);
    const now = clock().toISOString();
    const deliveries: NewDelivery[] = [];
    for (const { work, enabled } of wanting) {
      const submission = submissions.get(work.submission.id);
      if (!submission) continue;
      const receivers = enabled.filter((d) => (!submission.spam_flag || d.deliverSpam) && !reached.get(submission.id)?.has(d.id));
      if (receivers.length === 0) continue;
      const { form } = work;
      const event: SubmissionEvent = {
        id: newEventId(),
        type: 'submission.created',
        created_at: now,
        data: { form: { id: form.id, name: form.name, slug: form.slug, visibility: form.visibility, version: form.version }, submission },
      };
      const payload = { event, fields: work.fields, link: submissionLink(deps.baseUrl, form.id, submission.id) };
      deliveries.push(...receivers.map((d) => ({ id: randomUUID(), destinationId: d.id, submissionId: submission.id, payload, createdAt: now })));
    }
    // Each delivery's job continues its submission's trace (the processing job's span; nothing while tracing is off).
    const workOf = new Map(wanting.map(({ work }) => [work.submission.id, work]));
    // In slices: a batch to forms with many destinations must stay under the engines' limits on bound parameters.
    for (let i = 0; i < deliveries.length; i += SLICE) {
      const slice = deliveries.slice(i, i + SLICE);
      await deps.deliveries.insert(tx, slice);
      await deps.queue.enqueueInTransaction(tx, slice.map((d) => ({ task: DELIVER, payload: { deliveryId: d.id, ...jobTraceOf(workOf.get(d.submissionId ?? '')) } })));
    }
  };
}
