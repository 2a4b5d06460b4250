// The only code that reads and writes deliveries and their attempts (the delivery log), and the
// destination state that moves with them (failure count, last error, automatic disable).
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Tables } from '../../db/tables.ts';
import { fromJson, toIso, toIsoOrNull } from '../../db/values.ts';
import type { FieldDefinition } from '../../forms/field-schema.ts';
import type { SubmissionEvent } from '../event.ts';
import { toDestination, type Destination } from '../destinations/store.ts';
import type { SecretBox } from '../../secrets/box.ts';

/** What every attempt of a delivery sends, fixed when the delivery is created. */
export interface DeliveryPayload {
  event: SubmissionEvent;
  fields: FieldDefinition[];
  link: string;
}

export interface Delivery {
  id: string;
  destinationId: string;
  submissionId: string | null;
  eventId: string;
  payload: DeliveryPayload;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface AttemptRecord {
  attempt: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

export interface DeliveryWork {
  delivery: Delivery;
  destination: Destination;
  /** For the owner's alert when the destination is disabled. */
  ownerEmail: string;
  /** The owner's account, whose live dashboard hears of the outcome. */
  ownerId: string;
  formName: string;
}

type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveryQuery>['executeTakeFirstOrThrow']>>;

function deliveryQuery(db: Db | Transaction<Tables>) {
  return db.selectFrom('deliveries').selectAll();
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    destinationId: row.destination_id,
    submissionId: row.submission_id,
    eventId: row.event_id,
    payload: fromJson(row.payload) as DeliveryPayload,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: toIsoOrNull(row.next_attempt_at),
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: toIso(row.created_at),
    completedAt: toIsoOrNull(row.completed_at),
  };
}

export interface NewDelivery {
  id: string;
  destinationId: string;
  submissionId: string | null;
  payload: DeliveryPayload;
  createdAt: string;
}

export interface AttemptOutcome {
  record: AttemptRecord;
  /** The delivery after this attempt. */
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: string | null;
  /** Set when this attempt turns the destination off. */
  disable: string | null;
}

async function insertAttempt(tx: Transaction<Tables>, deliveryId: string, record: AttemptRecord): Promise<void> {
  await tx
    .insertInto('delivery_attempts')
    .values({
      delivery_id: deliveryId, attempt: record.attempt, attempted_at: record.attemptedAt, status_code: record.statusCode,
      duration_ms: record.durationMs, error: record.error, response_body: record.responseBody,
    })
    .execute();
}

/** `box` opens the destination's sealed secret and target for the sender. */
export function deliveryStore(db: Db, box: SecretBox) {
  return {
    /** In the caller's transaction when given (a finishing submission's), else on its own. */
    async insert(executor: Db | Transaction<Tables> | undefined, deliveries: NewDelivery[]): Promise<void> {
      executor ??= db;
      if (deliveries.length === 0) return;
      await executor
        .insertInto('deliveries')
        .values(deliveries.map((d) => ({
          id: d.id, destination_id: d.destinationId, submission_id: d.submissionId, event_id: d.payload.event.id,
          payload: JSON.stringify(d.payload), status: 'pending' as const, attempts: 0, created_at: d.createdAt,
        })))
        .execute();
    },

    /** By submission, the destinations that already have a delivery of it (a spam correction must not send it again). */
    async destinationsReached(tx: Transaction<Tables>, submissionIds: string[]): Promise<Map<string, Set<string>>> {
      const reached = new Map<string, Set<string>>();
      if (submissionIds.length === 0) return reached;
      const rows = await tx.selectFrom('deliveries').select(['submission_id', 'destination_id']).where('submission_id', 'in', submissionIds).execute();
      for (const { submission_id: id, destination_id: destination } of rows) if (id !== null) reached.set(id, (reached.get(id) ?? new Set()).add(destination));
      return reached;
    },

    async load(id: string): Promise<DeliveryWork | null> {
      const row = await deliveryQuery(db).where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      const destination = await db
        .selectFrom('destinations')
        .innerJoin('forms', 'forms.id', 'destinations.form_id')
        .innerJoin('accounts', 'accounts.id', 'forms.account_id')
        .selectAll('destinations')
        .select(['accounts.email as owner_email', 'accounts.id as owner_id', 'forms.name as form_name'])
        .where('destinations.id', '=', row.destination_id)
        .executeTakeFirst();
      if (!destination) return null;
      return { delivery: toDelivery(row), destination: toDestination(destination, box), ownerEmail: destination.owner_email, ownerId: destination.owner_id, formName: destination.form_name };
    },

    /**
     * Records one attempt and what follows from it, in one transaction: the delivery's state, the
     * destination's failure count and last error, and (when `disable` says why) turning it off,
     * with the form's own webhook switch for a form webhook. `then` enqueues the retry in the same transaction.
     */
    async recordAttempt(work: DeliveryWork, outcome: AttemptOutcome, then?: (tx: Transaction<Tables>) => Promise<void>): Promise<void> {
      const { record } = outcome;
      const ok = outcome.status === 'succeeded';
      await db.transaction().execute(async (tx) => {
        await insertAttempt(tx, work.delivery.id, record);
        await tx
          .updateTable('deliveries')
          .set({
            status: outcome.status,
            attempts: (eb) => eb('attempts', '+', 1),
            next_attempt_at: outcome.nextAttemptAt,
            last_status_code: record.statusCode,
            last_error: record.error,
            completed_at: outcome.status === 'pending' ? null : record.attemptedAt,
          })
          .where('id', '=', work.delivery.id)
          .execute();
        await tx
          .updateTable('destinations')
          .set((eb) => ({
            failure_count: ok ? 0 : eb('failure_count', '+', 1),
            ...(ok ? { last_delivered_at: record.attemptedAt, last_error: null } : { last_error: record.error }),
            ...(outcome.disable && { enabled: false, disabled_at: record.attemptedAt, disabled_reason: outcome.disable }),
          }))
          .where('id', '=', work.destination.id)
          .execute();
        if (outcome.disable && work.destination.source === 'form') {
          await tx.updateTable('forms').set({ webhook_enabled: false }).where('id', '=', work.destination.formId).execute();
        }
        await then?.(tx);
      });
    },

    /** The one attempt of a test event; the destination's own record is left alone. */
    async recordTest(id: string, record: AttemptRecord, ok: boolean): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await insertAttempt(tx, id, record);
        await tx
          .updateTable('deliveries')
          .set({ status: ok ? 'succeeded' : 'failed', attempts: 1, last_status_code: record.statusCode, last_error: record.error, completed_at: record.attemptedAt })
          .where('id', '=', id)
          .execute();
      });
    },

    /** A delivery that will not be attempted (its destination was turned off meanwhile). */
    async abandon(id: string, reason: string, at: string): Promise<void> {
      await db
        .updateTable('deliveries')
        .set({ status: 'failed', last_error: reason, completed_at: at, next_attempt_at: null })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    /** Back to pending for a manual retry; the retry job is enqueued in the same transaction. */
    async reopen(id: string, then: (tx: Transaction<Tables>) => Promise<void>): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const result = await tx
          .updateTable('deliveries')
          .set({ status: 'pending', completed_at: null, next_attempt_at: null })
          .where('id', '=', id)
          .where('status', '=', 'failed')
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        await then(tx);
        return true;
      });
    },

    async get(destinationId: string, id: string): Promise<Delivery | null> {
      const row = await deliveryQuery(db).where('destination_id', '=', destinationId).where('id', '=', id).executeTakeFirst();
      return row ? toDelivery(row) : null;
    },

    /** The deliveries made for one submission, to any destination, newest first. */
    async forSubmission(submissionId: string): Promise<Delivery[]> {
      const rows = await deliveryQuery(db).where('submission_id', '=', submissionId).orderBy('created_at', 'desc').limit(100).execute();
      return rows.map(toDelivery);
    },

    async list(destinationId: string, limit: number, offset: number): Promise<{ deliveries: Delivery[]; total: number }> {
      const rows = await deliveryQuery(db)
        .where('destination_id', '=', destinationId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      const count = await db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('destination_id', '=', destinationId)
        .executeTakeFirstOrThrow();
      return { deliveries: rows.map(toDelivery), total: Number(count.n) };
    },

    async attempts(deliveryIds: string[]): Promise<Map<string, AttemptRecord[]>> {
      const byDelivery = new Map<string, AttemptRecord[]>();
      if (deliveryIds.length === 0) return byDelivery;
      const rows = await db.selectFrom('delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('id').execute();
      for (const row of rows) {
        const list = byDelivery.get(row.delivery_id) ?? [];
        list.push({
          attempt: row.attempt, attemptedAt: toIso(row.attempted_at), statusCode: row.status_code,
          durationMs: row.duration_ms, error: row.error, responseBody: row.response_body,
        });
        byDelivery.set(row.delivery_id, list);
      }
      return byDelivery;
    },
  };
}

export type DeliveryStore = ReturnType<typeof deliveryStore>;
