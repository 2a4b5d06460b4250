// The rules of forms: defaults, conditional requirements, slug uniqueness per owner, schema
// versions (a new fields_schema or slug mints a new endpoint; old endpoints keep their version).
import { randomBytes, randomUUID } from 'node:crypto';
import { hashSecret, newSecret } from '../accounts/secrets.ts';
import { isUniqueViolation } from '../db/values.ts';
import { fail, type FieldErrors } from '../http/errors.ts';
import { parseFieldsSchema, type FieldsSchema } from './field-schema.ts';
import { normaliseOrigin } from './origins.ts';
import type { FormChanges, FormRecord, FormSettings, FormStore, FormVersion, NewVersion, WithinFormWrite } from './store.ts';

export interface FormInput extends Partial<FormSettings> {
  name?: string;
  slug?: string;
  visibility?: 'public' | 'private';
  fields_schema?: unknown;
  /** The hosted service's name of reply_email_field. */
  smart_reply_email_field?: string | null;
}

const DEFAULT_SETTINGS: FormSettings = {
  spam_protection_enabled: false,
  spam_protection_strategy: 'standard',
  spam_sensitivity: 'balanced',
  localisation_enabled: false,
  smart_reply_enabled: false,
  smart_replies_mode: 'draft',
  knowledge_base_id: null,
  reply_email_field: null,
  webhook_enabled: false,
  webhook_url: null,
  webhook_secret: null,
  intent: null,
  retention_days: null,
  spam_retention_days: 30,
  captcha_provider: 'none',
  captcha_site_key: null,
  captcha_secret: null,
  redirect_url: null,
  allowed_origins: [],
};

const SETTING_KEYS = Object.keys(DEFAULT_SETTINGS) as Array<keyof FormSettings>;
const TOKEN_PREFIX = 'st_';
const ENDPOINT_CACHE_LIMIT = 10_000;
/**
 * How long the submit path trusts a form it read. This process forgets a form at once when it
 * changes it; another process (several API servers) sees a change within this time. A form deleted
 * meanwhile still answers 404: the insert finds it gone.
 */
const FORM_CACHE_MS = 1_000;

function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

function pickSettings(input: FormInput, errors: FieldErrors): Partial<FormSettings> {
  const picked: Partial<FormSettings> = {};
  for (const key of SETTING_KEYS) if (input[key] !== undefined) Object.assign(picked, { [key]: input[key] });
  if (picked.allowed_origins) picked.allowed_origins = normaliseOrigins(picked.allowed_origins, errors);
  // The hosted service's name of the setting, stored (and answered) under Intake's.
  const alias = input.smart_reply_email_field;
  if (alias !== undefined && input.reply_email_field !== undefined && alias !== input.reply_email_field) {
    addError(errors, 'smart_reply_email_field', 'differs from reply_email_field: they are one setting, give one of them');
  } else if (alias !== undefined) {
    picked.reply_email_field = alias;
  }
  return picked;
}

/** Origins as stored: normalised, each once. */
function normaliseOrigins(entries: string[], errors: FieldErrors): string[] {
  const origins = new Set<string>();
  for (const entry of entries) {
    const result = normaliseOrigin(entry);
    if ('origin' in result) origins.add(result.origin);
    else addError(errors, 'allowed_origins', result.problem);
  }
  return [...origins];
}

/** The conditional requirements of the spec, checked on the form as it will be after the write. */
function checkSettings(settings: FormSettings, errors: FieldErrors, urlProblem: FormHooks['urlProblem']): void {
  if (settings.smart_reply_enabled && !settings.knowledge_base_id) {
    addError(errors, 'knowledge_base_id', 'is required when smart_reply_enabled is true');
  }
  if (settings.webhook_enabled && !settings.webhook_url) addError(errors, 'webhook_url', 'is required when webhook_enabled is true');
  if (settings.webhook_enabled && !settings.webhook_secret) {
    addError(errors, 'webhook_secret', 'is required when webhook_enabled is true');
  }
  if (settings.webhook_url) {
    const problem = urlProblem(settings.webhook_url);
    if (problem) addError(errors, 'webhook_url', problem);
  }
  // A hosted provider cannot be asked without both; a form that asks for CAPTCHA must never go unchecked.
  if (HOSTED_PROVIDERS.has(settings.captcha_provider)) {
    const message = `is required when captcha_provider is ${settings.captcha_provider}`;
    if (!settings.captcha_site_key) addError(errors, 'captcha_site_key', message);
    if (!settings.captcha_secret) addError(errors, 'captcha_secret', message);
  }
}

const HOSTED_PROVIDERS = new Set(['turnstile', 'hcaptcha', 'recaptcha']);

/** A reply_email_field must name an email field of the schema the form will have. */
function checkReplyField(settings: FormSettings, schema: FieldsSchema | null, errors: FieldErrors): void {
  const name = settings.reply_email_field;
  if (!name || !schema) return;
  const field = schema.fields.find((f) => f.name === name);
  if (!field) addError(errors, 'reply_email_field', 'is not a field of this form');
  else if (field.type !== 'email') addError(errors, 'reply_email_field', 'must name a field of type email');
}

export interface FormHooks {
  /** Why a webhook URL may not be called (not HTTPS, a private address …), or null. */
  urlProblem(url: string): string | null;
  /** In the transaction that creates or changes a form: its webhook_* settings are its first destination. */
  saved?: WithinFormWrite;
  /** Whether the account owns this knowledge base; forms may only answer from their owner's. */
  ownsKnowledgeBase?(accountId: string, id: string): Promise<boolean>;
}

function httpsOnly(url: string): string | null {
  try {
    return new URL(url).protocol === 'https:' ? null : 'must be an HTTPS URL';
  } catch {
    return 'is not a valid URL';
  }
}

function parseSchema(input: unknown, errors: FieldErrors): FieldsSchema | null {
  const parsed = parseFieldsSchema(input);
  if (parsed.ok) return parsed.schema;
  for (const message of parsed.errors) addError(errors, 'fields_schema', message);
  return null;
}

function newVersion(slug: string, schema: FieldsSchema, now: string): Omit<NewVersion, 'number'> {
  return { id: randomUUID(), segment: randomBytes(16).toString('base64url'), slug, schema, createdAt: now };
}

export function formService(store: FormStore, hooks: FormHooks = { urlProblem: httpsOnly }, clock: () => Date = () => new Date()) {
  // Versions never change once minted, so an endpoint's version is cached for the life of the process.
  const endpoints = new Map<string, { formId: string; version: FormVersion }>();
  const recentForms = new Map<string, { form: FormRecord; until: number }>();

  async function recentForm(id: string): Promise<FormRecord | null> {
    const now = Date.now();
    const cached = recentForms.get(id);
    if (cached && cached.until > now) return cached.form;
    const form = await store.findById(id);
    if (recentForms.size >= ENDPOINT_CACHE_LIMIT) recentForms.clear();
    if (form) recentForms.set(id, { form, until: now + FORM_CACHE_MS });
    else recentForms.delete(id);
    return form;
  }

  async function requireOwned(accountId: string, id: string): Promise<FormRecord> {
    const form = await store.findOwned(accountId, id);
    if (!form) throw fail.formNotFound();
    return form;
  }

  async function slugError(accountId: string, slug: string, errors: FieldErrors, exceptId?: string): Promise<void> {
    if (await store.slugTaken(accountId, slug, exceptId)) addError(errors, 'slug', 'has already been taken');
  }

  async function knowledgeBaseError(accountId: string, settings: Partial<FormSettings>, errors: FieldErrors): Promise<void> {
    const id = settings.knowledge_base_id;
    if (!id || !hooks.ownsKnowledgeBase) return;
    if (!(await hooks.ownsKnowledgeBase(accountId, id))) addError(errors, 'knowledge_base_id', 'does not name a knowledge base of yours');
  }

  function rethrowSlugRace(error: unknown): never {
    if (isUniqueViolation(error)) throw fail.validation({ slug: ['has already been taken'] });
    throw error;
  }

  return {
    list: (accountId: string) => store.listOwned(accountId),
    get: requireOwned,

    async versions(accountId: string, id: string) {
      const form = await requireOwned(accountId, id);
      return store.versions(form.id);
    },

    async create(accountId: string, input: FormInput): Promise<{ form: FormRecord; submissionToken: string | null }> {
      const errors: FieldErrors = {};
      const schema = parseSchema(input.fields_schema, errors);
      const settings = { ...DEFAULT_SETTINGS, ...pickSettings(input, errors) };
      checkSettings(settings, errors, hooks.urlProblem);
      checkReplyField(settings, schema, errors);
      await knowledgeBaseError(accountId, settings, errors);
      const slug = input.slug as string;
      await slugError(accountId, slug, errors);
      if (Object.keys(errors).length > 0 || !schema) throw fail.validation(errors);

      const now = clock().toISOString();
      const submissionToken = input.visibility === 'private' ? newSecret(TOKEN_PREFIX) : null;
      const form = {
        id: randomUUID(),
        accountId,
        name: input.name as string,
        slug,
        visibility: input.visibility ?? 'public',
        submissionTokenHash: submissionToken ? hashSecret(submissionToken) : null,
        settings,
        createdAt: now,
        updatedAt: now,
      };
      await store.insert(form, { ...newVersion(slug, schema, now), number: 1 }, hooks.saved).catch(rethrowSlugRace);
      const created = await requireOwned(accountId, form.id);
      return { form: created, submissionToken };
    },

    async update(accountId: string, id: string, input: FormInput): Promise<{ form: FormRecord; submissionToken: string | null }> {
      const current = await requireOwned(accountId, id);
      const errors: FieldErrors = {};
      const schema = input.fields_schema === undefined ? current.version.schema : parseSchema(input.fields_schema, errors);
      const settingsChange = pickSettings(input, errors);
      checkSettings({ ...current.settings, ...settingsChange }, errors, hooks.urlProblem);
      checkReplyField({ ...current.settings, ...settingsChange }, schema, errors);
      await knowledgeBaseError(accountId, settingsChange, errors);
      const slug = input.slug ?? current.slug;
      if (slug !== current.slug) await slugError(accountId, slug, errors, id);
      if (Object.keys(errors).length > 0 || !schema) throw fail.validation(errors);

      const changes: FormChanges = { name: input.name, slug: input.slug, visibility: input.visibility, settings: settingsChange };
      let submissionToken: string | null = null;
      if (input.visibility === 'private' && current.visibility === 'public') {
        submissionToken = newSecret(TOKEN_PREFIX);
        changes.submissionTokenHash = hashSecret(submissionToken);
      } else if (input.visibility === 'public') {
        changes.submissionTokenHash = null;
      }
      const now = clock().toISOString();
      const schemaChanged = JSON.stringify(schema) !== JSON.stringify(current.version.schema);
      const version = schemaChanged || slug !== current.slug ? newVersion(slug, schema, now) : undefined;
      const found = await store.update(id, changes, now, version, hooks.saved).catch(rethrowSlugRace);
      recentForms.delete(id);
      if (!found) throw fail.formNotFound();
      let updated = await requireOwned(accountId, id);
      // A concurrent change may have minted a later version meanwhile: this answer names the one this change minted.
      if (version && updated.version.id !== version.id) {
        const minted = (await store.versions(id)).find((v) => v.id === version.id);
        if (minted) updated = { ...updated, version: { id: minted.id, number: minted.number, segment: minted.segment, slug: minted.slug, schema: minted.schema } };
      }
      return { form: updated, submissionToken };
    },

    async delete(accountId: string, id: string): Promise<FormRecord> {
      const form = await requireOwned(accountId, id);
      await store.delete(id);
      recentForms.delete(id);
      return form;
    },

    /** Forms deleted elsewhere (a workspace's deletion): this process stops serving them from its cache now. */
    forget(ids: string[]): void {
      for (const id of ids) recentForms.delete(id);
    },

    /**
     * The form behind `/api/<segment>/f/<slug>` and the schema version that endpoint was minted for.
     * The form itself is re-read after at most FORM_CACHE_MS: it may have been changed meanwhile.
     */
    async resolveEndpoint(segment: string, slug: string): Promise<{ form: FormRecord; endpointVersion: FormVersion } | null> {
      const cached = endpoints.get(segment);
      let found: { form: FormRecord; endpointVersion: FormVersion } | null = null;
      if (cached) {
        const form = await recentForm(cached.formId);
        if (form) found = { form, endpointVersion: cached.version };
      } else {
        found = await store.findEndpoint(segment);
        if (found) {
          if (endpoints.size >= ENDPOINT_CACHE_LIMIT) endpoints.clear();
          endpoints.set(segment, { formId: found.form.id, version: found.endpointVersion });
        }
      }
      return found && found.endpointVersion.slug === slug ? found : null;
    },
  };
}

export type FormService = ReturnType<typeof formService>;
