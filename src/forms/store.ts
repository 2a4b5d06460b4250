// The only code that reads and writes forms and their schema versions. The form's own webhook URL and
// signing secret are sealed at rest (secrets/box.ts), as its destination's copy is.
import type { Transaction } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { fromJson, toBool, toCount, toIso } from '../db/values.ts';
import { formSubmissionCount } from '../db/counter-shards.ts';
import type { FieldsSchema } from './field-schema.ts';
import { isSealed, type SecretBox } from '../secrets/box.ts';

export interface FormSettings {
  spam_protection_enabled: boolean;
  spam_protection_strategy: 'standard' | 'intelligent';
  /** Where the spam thresholds sit: `high` flags more, `low` fewer (docs/spam.md). */
  spam_sensitivity: 'low' | 'balanced' | 'high';
  localisation_enabled: boolean;
  smart_reply_enabled: boolean;
  smart_replies_mode: 'draft' | 'auto';
  knowledge_base_id: string | null;
  /** The email field a smart reply goes to; null: the form's first email field. */
  reply_email_field: string | null;
  webhook_enabled: boolean;
  webhook_url: string | null;
  webhook_secret: string | null;
  /** Plain-text purpose of the form; intelligent spam detection judges submissions against it. */
  intent: string | null;
  /** Days a submission is kept, 1 to 3,650; null: for ever. */
  retention_days: number | null;
  /** Days a spam submission is kept; null: as long as the others. */
  spam_retention_days: number | null;
  /** Who checks that a person sent the submission (docs/captcha.md); `none`: nobody. */
  captcha_provider: CaptchaProvider;
  /** The hosted provider's site key, which the owner's page shows; null for none and ALTCHA. */
  captcha_site_key: string | null;
  /** The hosted provider's secret the server verifies tokens with; write-only, like webhook_secret. */
  captcha_secret: string | null;
  /** Where a browser goes after a plain HTML post (http or https); null: Intake's thank-you page. */
  redirect_url: string | null;
  /** Normalised origins (scheme://host[:port]) that may post to the form; empty: any site. */
  allowed_origins: string[];
}

export type CaptchaProvider = 'none' | 'altcha' | 'turnstile' | 'hcaptcha' | 'recaptcha';

/** The form's own webhook as its row says it within the transaction that changed it. */
export interface FormWebhook {
  formId: string;
  enabled: boolean;
  url: string | null;
  secret: string | null;
}

/** Runs inside the transaction that created or changed a form: what must commit with it, or not at all. */
export type WithinFormWrite = (tx: Transaction<Tables>, webhook: FormWebhook) => Promise<void>;

export interface FormVersion {
  id: string;
  number: number;
  segment: string;
  slug: string;
  schema: FieldsSchema;
}

export interface FormRecord {
  id: string;
  accountId: string;
  name: string;
  slug: string;
  visibility: 'public' | 'private';
  submissionTokenHash: string | null;
  settings: FormSettings;
  submissionCount: number;
  spamCount: number;
  createdAt: string;
  updatedAt: string;
  version: FormVersion;
}

export interface NewVersion {
  id: string;
  number: number;
  segment: string;
  slug: string;
  schema: FieldsSchema;
  createdAt: string;
}

export interface FormChanges {
  name?: string;
  slug?: string;
  visibility?: 'public' | 'private';
  submissionTokenHash?: string | null;
  settings?: Partial<FormSettings>;
}

function formQuery(db: Db | Transaction<Tables>) {
  return db
    .selectFrom('forms')
    .innerJoin('form_versions', 'form_versions.id', 'forms.current_version_id')
    .selectAll('forms')
    .select([
      'form_versions.version as version_number',
      'form_versions.segment as version_segment',
      'form_versions.slug as version_slug',
      'form_versions.fields_schema as version_schema',
      formSubmissionCount('forms').as('counted_submissions'),
    ]);
}

type FormRow = NonNullable<Awaited<ReturnType<ReturnType<typeof formQuery>['executeTakeFirst']>>>;

const openOrNull = (box: SecretBox, value: string | null) => (value === null ? null : box.open(value));

/** The columns of the settings given, with the webhook's URL and secret sealed. */
/** Settings as columns: credentials sealed, the list of origins as JSON. */
function settingColumns<T extends Partial<FormSettings>>(box: SecretBox, settings: T): Omit<T, 'allowed_origins'> & { allowed_origins?: string } {
  const { allowed_origins: origins, ...columns } = settings;
  if (typeof columns.webhook_url === 'string') columns.webhook_url = box.seal(columns.webhook_url);
  if (typeof columns.webhook_secret === 'string') columns.webhook_secret = box.seal(columns.webhook_secret);
  if (typeof columns.captcha_secret === 'string') columns.captcha_secret = box.seal(columns.captcha_secret);
  const list: { allowed_origins?: string } = origins === undefined ? {} : { allowed_origins: JSON.stringify(origins) };
  return { ...columns, ...list };
}

function toForm(row: FormRow, box: SecretBox): FormRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    slug: row.slug,
    visibility: row.visibility,
    submissionTokenHash: row.submission_token_hash,
    settings: {
      spam_protection_enabled: toBool(row.spam_protection_enabled),
      spam_protection_strategy: row.spam_protection_strategy,
      spam_sensitivity: row.spam_sensitivity,
      localisation_enabled: toBool(row.localisation_enabled),
      smart_reply_enabled: toBool(row.smart_reply_enabled),
      smart_replies_mode: row.smart_replies_mode,
      knowledge_base_id: row.knowledge_base_id,
      reply_email_field: row.reply_email_field,
      webhook_enabled: toBool(row.webhook_enabled),
      webhook_url: openOrNull(box, row.webhook_url),
      webhook_secret: openOrNull(box, row.webhook_secret),
      intent: row.intent,
      retention_days: row.retention_days,
      spam_retention_days: row.spam_retention_days,
      captcha_provider: row.captcha_provider,
      captcha_site_key: row.captcha_site_key,
      captcha_secret: openOrNull(box, row.captcha_secret),
      redirect_url: row.redirect_url,
      allowed_origins: (fromJson(row.allowed_origins) as string[] | null) ?? [],
    },
    submissionCount: toCount(row.counted_submissions),
    spamCount: toCount(row.spam_count),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: {
      id: row.current_version_id,
      number: row.version_number,
      segment: row.version_segment,
      slug: row.version_slug,
      schema: fromJson(row.version_schema) as FieldsSchema,
    },
  };
}

async function insertVersion(tx: Transaction<Tables>, formId: string, v: NewVersion): Promise<void> {
  await tx
    .insertInto('form_versions')
    .values({
      id: v.id,
      form_id: formId,
      version: v.number,
      segment: v.segment,
      slug: v.slug,
      fields_schema: JSON.stringify(v.schema),
      created_at: v.createdAt,
    })
    .execute();
}

export function formStore(db: Db, box: SecretBox) {
  const toRecord = (row: FormRow) => toForm(row, box);
  return {
    async insert(form: Omit<FormRecord, 'version' | 'submissionCount' | 'spamCount'>, version: NewVersion, within?: WithinFormWrite): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('forms')
          .values({
            id: form.id,
            account_id: form.accountId,
            name: form.name,
            slug: form.slug,
            visibility: form.visibility,
            submission_token_hash: form.submissionTokenHash,
            current_version_id: version.id,
            ...settingColumns(box, form.settings),
            submission_count: 0,
            spam_count: 0,
            created_at: form.createdAt,
            updated_at: form.updatedAt,
          })
          .execute();
        await insertVersion(tx, form.id, version);
        const { webhook_enabled: enabled, webhook_url: url, webhook_secret: secret } = form.settings;
        await within?.(tx, { formId: form.id, enabled, url, secret });
      });
    },

    async findOwned(accountId: string, id: string): Promise<FormRecord | null> {
      const row = await formQuery(db).where('forms.account_id', '=', accountId).where('forms.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async findById(id: string): Promise<FormRecord | null> {
      const row = await formQuery(db).where('forms.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async listOwned(accountId: string): Promise<FormRecord[]> {
      const rows = await formQuery(db).where('forms.account_id', '=', accountId).orderBy('forms.created_at', 'desc').execute();
      return rows.map(toRecord);
    },

    async slugTaken(accountId: string, slug: string, exceptId?: string): Promise<boolean> {
      let query = db.selectFrom('forms').select('id').where('account_id', '=', accountId).where('slug', '=', slug);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    /**
     * Applies the changes and, when given, makes a new schema version current; all or nothing.
     * The form row is written first: that locks it, so concurrent changes number their versions in turn.
     * Returns false when the form no longer exists.
     */
    async update(id: string, changes: FormChanges, updatedAt: string, version?: Omit<NewVersion, 'number'>, within?: WithinFormWrite): Promise<boolean> {
      return db.transaction().execute(async (tx) => {
        const updated = await tx
          .updateTable('forms')
          .set({
            ...(changes.name !== undefined && { name: changes.name }),
            ...(changes.slug !== undefined && { slug: changes.slug }),
            ...(changes.visibility !== undefined && { visibility: changes.visibility }),
            ...(changes.submissionTokenHash !== undefined && { submission_token_hash: changes.submissionTokenHash }),
            ...(changes.settings && settingColumns(box, changes.settings)),
            updated_at: updatedAt,
          })
          .where('id', '=', id)
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return false;
        if (version) {
          const latest = await tx
            .selectFrom('form_versions')
            .select((eb) => eb.fn.max('version').as('number'))
            .where('form_id', '=', id)
            .executeTakeFirstOrThrow();
          await insertVersion(tx, id, { ...version, number: Number(latest.number ?? 0) + 1 });
          await tx.updateTable('forms').set({ current_version_id: version.id }).where('id', '=', id).execute();
        }
        if (within) {
          // Read back under the row lock the update took: a concurrent change's settings are never half seen.
          const row = await tx.selectFrom('forms').select(['webhook_enabled', 'webhook_url', 'webhook_secret']).where('id', '=', id).executeTakeFirstOrThrow();
          await within(tx, { formId: id, enabled: toBool(row.webhook_enabled), url: openOrNull(box, row.webhook_url), secret: openOrNull(box, row.webhook_secret) });
        }
        return true;
      });
    },

    /** Every schema version of the form, newest first, with when it was minted. */
    async versions(formId: string): Promise<Array<FormVersion & { createdAt: string }>> {
      const rows = await db
        .selectFrom('form_versions')
        .select(['id', 'version', 'segment', 'slug', 'fields_schema', 'created_at'])
        .where('form_id', '=', formId)
        .orderBy('version', 'desc')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        number: row.version,
        segment: row.segment,
        slug: row.slug,
        schema: fromJson(row.fields_schema) as FieldsSchema,
        createdAt: toIso(row.created_at),
      }));
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom('forms').where('id', '=', id).execute();
    },

    /** The form behind a submission endpoint, with the schema version that endpoint was minted for. */
    async findEndpoint(segment: string): Promise<{ form: FormRecord; endpointVersion: FormVersion } | null> {
      const row = await db
        .selectFrom('form_versions')
        .select(['id', 'form_id', 'version', 'segment', 'slug', 'fields_schema'])
        .where('segment', '=', segment)
        .executeTakeFirst();
      if (!row) return null;
      const form = await this.findById(row.form_id);
      if (!form) return null;
      return {
        form,
        endpointVersion: {
          id: row.id,
          number: row.version,
          segment: row.segment,
          slug: row.slug,
          schema: fromJson(row.fields_schema) as FieldsSchema,
        },
      };
    },

    /** Seals the webhook URLs and secrets of forms from before sealing; returns how many forms it changed. */
    async sealClear(): Promise<number> {
      const rows = await db.selectFrom('forms').select(['id', 'webhook_url', 'webhook_secret'])
        .where((eb) => eb.or([eb('webhook_url', 'not like', 'sealed:%'), eb('webhook_secret', 'not like', 'sealed:%')]))
        .execute();
      let changed = 0;
      for (const row of rows) {
        const seal = (value: string | null) => (value === null || isSealed(value) ? value : box.seal(value));
        let update = db.updateTable('forms').set({ webhook_url: seal(row.webhook_url), webhook_secret: seal(row.webhook_secret) }).where('id', '=', row.id);
        // Left alone when changed meanwhile: its writer sealed it.
        update = row.webhook_url === null ? update.where('webhook_url', 'is', null) : update.where('webhook_url', '=', row.webhook_url);
        update = row.webhook_secret === null ? update.where('webhook_secret', 'is', null) : update.where('webhook_secret', '=', row.webhook_secret);
        if ((await update.executeTakeFirst()).numUpdatedRows > 0n) changed++;
      }
      return changed;
    },
  };
}

export type FormStore = ReturnType<typeof formStore>;
