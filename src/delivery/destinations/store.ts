// The only code that reads and writes destinations. What gives power to whoever reads it is sealed
// (secrets/box.ts) on the way in and opened on the way out: the webhook signing secret, and in the
// target every URL (a chat's incoming-webhook URL is its credential; so are Zapier's or n8n's) and a
// Telegram bot token. Values from before sealing read as they are until the start-up pass seals them.
import type { Role } from '../../db/tables.ts';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DestinationType, DestinationsTable, Tables } from '../../db/tables.ts';
import { fromJson, toBool, toIsoOrNull, toIso } from '../../db/values.ts';
import type { Selectable } from 'kysely';
import type { FormWebhook } from '../../forms/store.ts';
import { isSealed, type SecretBox } from '../../secrets/box.ts';

export type Target = { url: string } | { bot_token: string; chat_id: string } | { recipients: string[]; recipients_role?: Role };

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

const SEALED_TARGET_KEYS = ['url', 'bot_token'] as const;

function mapTarget(target: Target, change: (value: string) => string): Target {
  const copy: Record<string, unknown> = { ...target };
  for (const key of SEALED_TARGET_KEYS) if (typeof copy[key] === 'string') copy[key] = change(copy[key]);
  return copy as Target;
}

const sealTarget = (box: SecretBox, target: Target) => JSON.stringify(mapTarget(target, box.seal));

export function toDestination(row: Selectable<DestinationsTable>, box: SecretBox): Destination {
  return {
    id: row.id,
    formId: row.form_id,
    type: row.type,
    name: row.name,
    target: mapTarget(fromJson(row.target) as Target, box.open),
    secret: row.secret === null ? null : box.open(row.secret),
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

function columns(changes: DestinationChanges, box: SecretBox) {
  return {
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.target !== undefined && { target: sealTarget(box, changes.target) }),
    ...(changes.secret !== undefined && { secret: changes.secret === null ? null : box.seal(changes.secret) }),
    ...(changes.deliverSpam !== undefined && { deliver_spam: changes.deliverSpam }),
    // Turning a destination on again starts its failure count afresh.
    ...(changes.enabled !== undefined && { enabled: changes.enabled }),
    ...(changes.enabled === true && { failure_count: 0, disabled_at: null, disabled_reason: null }),
  };
}

export function destinationStore(db: Db, box: SecretBox) {
  const toRecord = (row: Selectable<DestinationsTable>) => toDestination(row, box);
  return {
    async list(formId: string): Promise<Destination[]> {
      const rows = await db.selectFrom('destinations').selectAll().where('form_id', '=', formId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toRecord);
    },

    async get(formId: string, id: string): Promise<Destination | null> {
      const row = await db.selectFrom('destinations').selectAll().where('form_id', '=', formId).where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async insert(d: Destination): Promise<void> {
      await db
        .insertInto('destinations')
        .values({
          id: d.id,
          form_id: d.formId,
          type: d.type,
          name: d.name,
          target: sealTarget(box, d.target),
          secret: d.secret === null ? null : box.seal(d.secret),
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
        .set({ ...columns(changes, box), updated_at: now })
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
        const changes = columns({ target: { url: form.url }, secret: form.secret, enabled: switched }, box);
        await tx.updateTable('destinations').set({ ...changes, updated_at: now }).where('id', '=', existing.id).execute();
        return;
      }
      await tx
        .insertInto('destinations')
        .values({
          id: newId, form_id: form.formId, type: 'webhook', name: 'Form webhook', target: sealTarget(box, { url: form.url }),
          secret: box.seal(form.secret), deliver_spam: false, enabled: form.enabled, source: 'form', failure_count: 0, created_at: now, updated_at: now,
        })
        .execute();
    },

    /** The form's enabled destinations; those with deliverSpam also take its spam. */
    async enabled(tx: Transaction<Tables>, formId: string): Promise<Destination[]> {
      const rows = await tx.selectFrom('destinations').selectAll().where('form_id', '=', formId).where('enabled', '=', true).execute();
      return rows.map(toRecord);
    },

    /**
     * Seals what rows from before sealing hold in clear; returns how many rows it changed. A row
     * changed meanwhile (its secret or target no longer what was read) is left to its writer, who sealed it.
     */
    async sealClear(): Promise<number> {
      const rows = await db.selectFrom('destinations').select(['id', 'target', 'secret']).execute();
      let changed = 0;
      for (const row of rows) {
        const target = fromJson(row.target) as Target;
        const clearTarget = SEALED_TARGET_KEYS.some((key) => typeof (target as Record<string, unknown>)[key] === 'string' && !isSealed((target as Record<string, string>)[key]!));
        const clearSecret = row.secret !== null && !isSealed(row.secret);
        if (!clearTarget && !clearSecret) continue;
        let update = db.updateTable('destinations')
          .set({ target: clearTarget ? sealTarget(box, target) : JSON.stringify(target), ...(clearSecret && { secret: box.seal(row.secret as string) }) })
          .where('id', '=', row.id)
          .where('target', '=', typeof row.target === 'string' ? row.target : JSON.stringify(row.target));
        update = row.secret === null ? update.where('secret', 'is', null) : update.where('secret', '=', row.secret);
        const result = await update.executeTakeFirst();
        if (result.numUpdatedRows > 0n) changed++;
      }
      return changed;
    },
  };
}

export type DestinationStore = ReturnType<typeof destinationStore>;
