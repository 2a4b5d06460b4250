// The only code that reads and writes destinations.
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DestinationType, DestinationsTable, Tables } from '../../db/tables.ts';
import { fromJson, toBool, toIsoOrNull, toIso } from '../../db/values.ts';
import type { Selectable } from 'kysely';
import type { FormWebhook } from '../../forms/store.ts';

export type Target = { url: string } | { bot_token: string; chat_id: string } | { recipients: string[] };

export interface Destination {
  id: string;
  formId: string;
  type: DestinationType;
  name: string;
  target: Target;
  secret: string | null;
  deliverSpam: boolean;
  enabled: boolean;
  source: 'api' | 'form';
  failureCount: number;
  lastDeliveredAt: string | null;
  lastError: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DestinationChanges = Partial<Pick<Destination, 'name' | 'target' | 'secret' | 'deliverSpam' | 'enabled'>>;

export function toDestination(row: Selectable<DestinationsTable>): Destination {
  return {
    id: row.id,
    formId: row.form_id,
    type: row.type,
    name: row.name,
    target: fromJson(row.target) as Target,
    secret: row.secret,
    deliverSpam: toBool(row.deliver_spam),
    enabled: toBool(row.enabled),
    source: row.source,
    failureCount: row.failure_count,
    lastDeliveredAt: toIsoOrNull(row.last_delivered_at),
    lastError: row.last_error,
    disabledAt: toIsoOrNull(row.disabled_at),
    disabledReason: row.disabled_reason,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

function columns(changes: DestinationChanges) {
  return {
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.target !== undefined && { target: JSON.stringify(changes.target) }),
    ...(changes.secret !== undefined && { secret: changes.secret }),
    ...(changes.deliverSpam !== undefined && { deliver_spam: changes.deliverSpam }),
    // Turning a destination on again starts its failure count afresh.
    ...(changes.enabled !== undefined && { enabled: changes.enabled }),
    ...(changes.enabled === true && { failure_count: 0, disabled_at: null, disabled_reason: null }),
  };
}

export function destinationStore(db: Db) {
  return {
    async list(formId: string): Promise<Destination[]> {
      const rows = await db.selectFrom('destinations').selectAll().where('form_id', '=', formId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toDestination);
    },

    async get(formId: string, id: string): Promise<Destination | null> {
      const row = await db.selectFrom('destinations').selectAll().where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
      return row ? toDestination(row) : null;
    },

    async insert(d: Destination): Promise<void> {
      await db
        .insertInto('destinations')
        .values({
          id: d.id,
          form_id: d.formId,
          type: d.type,
          name: d.name,
          target: JSON.stringify(d.target),
          secret: d.secret,
          deliver_spam: d.deliverSpam,
          enabled: d.enabled,
          source: d.source,
          failure_count: 0,
          created_at: d.createdAt,
          updated_at: d.updatedAt,
        })
        .execute();
    },

    async update(formId: string, id: string, changes: DestinationChanges, now: string): Promise<boolean> {
      const result = await db
        .updateTable('destinations')
        .set({ ...columns(changes), updated_at: now })
        .where('form_id', '=', formId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async delete(formId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('destinations').where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * Keeps the form's own webhook (its webhook_* fields) as its `form` destination: created when
     * first enabled, updated after, removed with the URL. Turning it on again clears an automatic disable.
     */
    async syncFormWebhook(tx: Transaction<Tables>, form: FormWebhook, newId: string, now: string): Promise<void> {
      const existing = await tx.selectFrom('destinations').select(['id', 'enabled']).where('form_id', '=', form.formId).where('source', '=', 'form').executeTakeFirst();
      if (!form.url || !form.secret) {
        if (existing) await tx.deleteFrom('destinations').where('id', '=', existing.id).execute();
        return;
      }
      if (existing) {
        const switched = form.enabled !== toBool(existing.enabled) ? form.enabled : undefined;
        const changes = columns({ target: { url: form.url }, secret: form.secret, enabled: switched });
        await tx.updateTable('destinations').set({ ...changes, updated_at: now }).where('id', '=', existing.id).execute();
        return;
      }
      await tx
        .insertInto('destinations')
        .values({
          id: newId, form_id: form.formId, type: 'webhook', name: 'Form webhook', target: JSON.stringify({ url: form.url }),
          secret: form.secret, deliver_spam: false, enabled: form.enabled, source: 'form', failure_count: 0, created_at: now, updated_at: now,
        })
        .execute();
    },

    /** The destinations of a form that want this submission, read inside the transaction that finishes it. */
    /** The form's enabled destinations; those with deliverSpam also take its spam. */
    async enabled(tx: Transaction<Tables>, formId: string): Promise<Destination[]> {
      const rows = await tx.selectFrom('destinations').selectAll().where('form_id', '=', formId).where('enabled', '=', true).execute();
      return rows.map(toDestination);
    },
  };
}

export type DestinationStore = ReturnType<typeof destinationStore>;
