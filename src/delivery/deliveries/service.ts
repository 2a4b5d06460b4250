// The owner's view of deliveries: the log of a destination, a manual retry of a failed delivery,
// and a test event sent at once.
import { randomUUID } from 'node:crypto';
import type { JobQueue } from '../../jobs/queue.ts';
import { fail } from '../../http/errors.ts';
import type { FormService } from '../../forms/service.ts';
import type { Submission } from '../../submissions/store.ts';
import type { DestinationService } from '../destinations/service.ts';
import type { SubmissionEvent } from '../event.ts';
import { newEventId } from './enqueue.ts';
import { destinationLink } from '../../dashboard/links.ts';
import { sendToDestination, type SenderDeps } from './sender.ts';
import type { AttemptRecord, Delivery, DeliveryStore } from './store.ts';
import { DELIVER } from './tasks.ts';

export interface LoggedDelivery extends Delivery {
  log: AttemptRecord[];
}

export interface TestResult {
  delivery: LoggedDelivery;
  delivered: boolean;
}

const SAMPLE_VALUES: Record<string, unknown> = { string: 'Sample text', email: 'someone@example.com', number: 42, boolean: true, date: '2026-01-31' };

export function deliveryService(deps: {
  store: DeliveryStore;
  destinations: DestinationService;
  forms: FormService;
  queue: JobQueue;
  sender: SenderDeps;
  baseUrl: string;
  clock?: () => Date;
}) {
  const { store, destinations } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function withLog(deliveries: Delivery[]): Promise<LoggedDelivery[]> {
    const attempts = await store.attempts(deliveries.map((d) => d.id));
    return deliveries.map((d) => ({ ...d, log: attempts.get(d.id) ?? [] }));
  }

  return {
    async list(accountId: string, formId: string, destinationId: string, page: number, pageSize: number) {
      const destination = await destinations.get(accountId, formId, destinationId);
      const { deliveries, total } = await store.list(destination.id, pageSize, (page - 1) * pageSize);
      return { deliveries: await withLog(deliveries), total };
    },

    /** Deliveries of a submission the caller has checked belongs to the owner. */
    forSubmission: (submissionId: string) => store.forSubmission(submissionId).then(withLog),

    async retry(accountId: string, formId: string, destinationId: string, deliveryId: string): Promise<LoggedDelivery> {
      const destination = await destinations.get(accountId, formId, destinationId);
      const delivery = await store.get(destination.id, deliveryId);
      if (!delivery) throw fail.notFound('Delivery not found');
      if (!destination.enabled) throw fail.validation({ destination: ['is disabled: enable it first, then retry'] });
      if (delivery.submissionId === null) throw fail.validation({ delivery: ['is a test event: send another test instead'] });
      const reopened = await store.reopen(delivery.id, (tx) => deps.queue.enqueueInTransaction(tx, [{ task: DELIVER, payload: { deliveryId: delivery.id } }]));
      if (!reopened) throw fail.validation({ status: [`is ${delivery.status}: only a failed delivery can be retried`] });
      deps.queue.wake();
      const [logged] = await withLog([(await store.get(destination.id, deliveryId))!]);
      return logged!;
    },

    /** A sample event, sent now, once; logged like any delivery but not counted against the destination. */
    async test(accountId: string, formId: string, destinationId: string): Promise<TestResult> {
      const form = await deps.forms.get(accountId, formId);
      const destination = await destinations.get(accountId, formId, destinationId);
      const now = clock();
      const data = Object.fromEntries(
        form.version.schema.fields.filter((f) => !f.rules.some((r) => r.op === 'honeypot')).map((f) => [f.name, SAMPLE_VALUES[f.type]]),
      );
      const submission: Submission = {
        id: randomUUID(), data, created_at: now.toISOString(), processing_status: 'completed', processing_reason: null,
        spam_flag: false, spam_confidence: null, spam_reason: null, original_language: 'en', translated_data: null,
        reply_status: 'pending', reply_subject: null, reply_content: null, reply_reason: null, reply_confidence: null, replied_at: null, processed_at: now.toISOString(),
        spam_corrected_at: null, metadata: { ip: '127.0.0.1', user_agent: 'Intake test event', referer: null, origin: null, utm: {} },
        read: false, read_at: null, done: false, done_at: null,
        read_by: null, done_by: null, spam_marked_by: null, reply_edited_by: null, reply_sent_by: null,
      };
      const event: SubmissionEvent = {
        id: newEventId(), type: 'submission.test', created_at: now.toISOString(),
        data: { form: { id: form.id, name: form.name, slug: form.slug, visibility: form.visibility, version: form.version.number }, submission },
      };
      // The sample submission is never stored: its link is the destination's log, where this test shows.
      const payload = { event, fields: form.version.schema.fields, link: destinationLink(deps.baseUrl, form.id, destination.id) };
      const id = randomUUID();
      await store.insert(undefined, [{ id, destinationId: destination.id, submissionId: null, payload, createdAt: now.toISOString() }]);
      const result = await sendToDestination(destination, payload, now, deps.sender);
      await store.recordTest(id, {
        attempt: 1, attemptedAt: now.toISOString(), statusCode: result.statusCode, durationMs: result.durationMs,
        error: result.error, responseBody: result.responseBody,
      }, result.ok);
      const [logged] = await withLog([(await store.get(destination.id, id))!]);
      return { delivery: logged!, delivered: result.ok };
    },
  };
}

export type DeliveryService = ReturnType<typeof deliveryService>;
