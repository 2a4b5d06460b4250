// Sends a delivery and decides what follows: success; a retry on the configured schedule, fast first
// (honouring Retry-After); or a logged final failure. The destination is turned off when the
// receiver answers 410, when a delivery fails its last attempt, or after too many failed attempts
// in a row across submissions; its owner is then told by email.
import type { Config } from '../../config.ts';
import { retryDelay } from '../../jobs/backoff.ts';
import type { JobLog, JobQueue } from '../../jobs/queue.ts';
import type { InFlightSlots } from '../../limits/in-flight.ts';
import { ownerAlertEmail, type Mailer } from '../email.ts';
import { sendToDestination, type AttemptResult, type SenderDeps } from './sender.ts';
import type { AttemptOutcome, DeliveryStore, DeliveryWork } from './store.ts';
import { DELIVER, type DeliverPayload } from './tasks.ts';
import { destinationLink } from '../../dashboard/links.ts';
import { noMetrics, type Metrics } from '../../metrics/index.ts';
import { SpanStatusCode } from '@opentelemetry/api';
import { jobTrace, SpanKind, withSpan } from '../../tracing/index.ts';

export interface DelivererDeps {
  store: DeliveryStore;
  queue: JobQueue;
  sender: SenderDeps;
  mailer: Mailer | null;
  slots: InFlightSlots;
  delivery: Config['delivery'];
  /** Where links to the dashboard point. */
  baseUrl: string;
  log: JobLog;
  /** After an attempt's outcome committed: the live dashboard is told (never awaited). */
  onRecorded?: (work: DeliveryWork, status: AttemptOutcome['status']) => void;
  clock?: () => Date;
  /** Attempts by destination kind and outcome, automatic disables (src/metrics). */
  metrics?: Metrics;
}

/** Sends at once to one destination at most, across every worker process sharing the slots; a dead receiver cannot take every slot. */
const MAX_IN_FLIGHT_PER_DESTINATION = 2;
const BUSY_DESTINATION_DELAY_MS = 200;
/** No slot is held longer than an attempt can last; one whose process died is free sooner (src/limits/in-flight.ts). */
const SLOT_MARGIN_MS = 30_000;

export function deliverer(deps: DelivererDeps) {
  const { store, log, delivery: policy } = deps;
  const clock = deps.clock ?? (() => new Date());
  const metrics = deps.metrics ?? noMetrics;

  function decide(work: DeliveryWork, result: AttemptResult, attempt: number, at: Date): AttemptOutcome {
    const record = {
      attempt: work.delivery.attempts + 1, attemptedAt: at.toISOString(), statusCode: result.statusCode,
      durationMs: result.durationMs, error: result.error, responseBody: result.responseBody,
    };
    if (result.ok) return { record, status: 'succeeded', nextAttemptAt: null, disable: null };
    const failedInARow = work.destination.failureCount + 1;
    const disable = result.gone
      ? 'the receiver answered 410 Gone'
      : attempt >= policy.maxAttempts
        ? `a delivery failed all ${policy.maxAttempts} attempts (last: ${result.error})`
        : failedInARow >= policy.disableAfter
          ? `${failedInARow} failed attempts in a row (last: ${result.error})`
          : null;
    if (disable || result.permanent) return { record, status: 'failed', nextAttemptAt: null, disable };
    const delay = Math.max(retryDelay(attempt, policy.retrySchedule), (result.retryAfterSeconds ?? 0) * 1000);
    return { record, status: 'pending', nextAttemptAt: new Date(at.getTime() + delay).toISOString(), disable: null };
  }

  async function alertOwner(work: DeliveryWork, reason: string): Promise<void> {
    const context = { deliveryId: work.delivery.id, destinationId: work.destination.id, reason };
    if (!deps.mailer) {
      log.error(context, 'destination disabled; no SMTP server is configured to tell its owner');
      return;
    }
    const mail = ownerAlertEmail({
      formName: work.formName, destinationName: work.destination.name, lastError: reason,
      link: destinationLink(deps.baseUrl, work.destination.formId, work.destination.id),
    });
    try {
      await deps.mailer.send({ to: [work.ownerEmail], ...mail });
      log.info(context, 'destination disabled; its owner was emailed');
    } catch (error) {
      log.error({ ...context, err: error }, 'destination disabled; the email to its owner failed');
    }
  }

  return async function deliver(payload: DeliverPayload): Promise<void> {
    const work = await store.load(payload.deliveryId);
    if (!work || work.delivery.status !== 'pending') return;
    const { destination } = work;
    if (!destination.enabled) {
      const reason = `not sent: the destination is disabled${destination.disabledReason ? ` (${destination.disabledReason})` : ''}`;
      await store.abandon(work.delivery.id, reason, clock().toISOString());
      log.error({ deliveryId: work.delivery.id, destinationId: destination.id, submissionId: work.delivery.submissionId }, reason);
      return;
    }
    // Where the shared slots cannot be reached (Redis down), sending uncapped beats not sending.
    const release = await deps.slots.take(destination.id, MAX_IN_FLIGHT_PER_DESTINATION, policy.timeoutMs + SLOT_MARGIN_MS).catch((error: unknown) => {
      log.error({ err: error, destinationId: destination.id }, 'in-flight slots cannot be reached; sending without the per-destination cap');
      return async () => {};
    });
    if (!release) {
      const runAt = new Date(clock().getTime() + BUSY_DESTINATION_DELAY_MS);
      await deps.queue.enqueue([{ task: DELIVER, payload: { ...payload, ...jobTrace(runAt) }, runAt }]);
      return;
    }

    const attempt = payload.attempt ?? 1;
    const at = clock();
    // The attempt's span: the destination's kind, the receiver's answer and what follows (its outcome).
    const { result, outcome } = await withSpan('delivery.send', { 'intake.destination.kind': destination.type, 'intake.delivery.attempt': attempt }, async (span) => {
      let result: AttemptResult;
      try {
        result = await sendToDestination(destination, work.delivery.payload, at, deps.sender);
      } finally {
        await release().catch((error: unknown) => log.error({ err: error, destinationId: destination.id }, 'could not release an in-flight slot; it expires by itself'));
      }
      const outcome = decide(work, result, attempt, at);
      if (span.isRecording()) {
        span.setAttributes({
          'intake.delivery.outcome': outcome.status === 'pending' ? 'retrying' : outcome.status,
          ...(result.statusCode !== null && { 'http.response.status_code': result.statusCode }),
          ...(result.error !== null && { 'intake.delivery.error': result.error.slice(0, 200) }),
        });
        if (outcome.status !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? undefined });
      }
      return { result, outcome };
    }, { kind: SpanKind.CLIENT });
    const retry = outcome.nextAttemptAt
      ? [{ task: DELIVER, payload: { deliveryId: work.delivery.id, attempt: attempt + 1, ...jobTrace(new Date(outcome.nextAttemptAt)) }, runAt: new Date(outcome.nextAttemptAt) }]
      : [];
    await store.recordAttempt(work, outcome, (tx) => deps.queue.enqueueInTransaction(tx, retry));
    deps.onRecorded?.(work, outcome.status);
    metrics.delivery(destination.type, outcome.status === 'pending' ? 'retrying' : outcome.status);
    if (outcome.disable) metrics.destinationDisabled(destination.type);

    const context = { deliveryId: work.delivery.id, destinationId: destination.id, submissionId: work.delivery.submissionId, attempt, error: result.error };
    if (outcome.status === 'failed') log.error(context, 'delivery failed for good');
    else if (outcome.status === 'pending') log.info({ ...context, nextAttemptAt: outcome.nextAttemptAt }, 'delivery failed; retrying later');
    if (outcome.disable) await alertOwner(work, outcome.disable);
  };
}
