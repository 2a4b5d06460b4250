// The form editor: a field builder (builder.js, progressive enhancement) beside the raw JSON of
// fields_schema, which is what is submitted, so the page works without JavaScript. The input is
// checked by the API's own body schema and then by the forms service: one set of rules.
import { CreateFormBody, UpdateFormBody } from '../../forms/schemas.ts';
import type { FormInput } from '../../forms/service.ts';
import type { FormRecord } from '../../forms/store.ts';
import { fail } from '../../http/errors.ts';
import { bodyChecker } from '../validate.ts';
import { flag, optional, text } from '../form-input.ts';
import { html, type Html } from '../html.ts';
import { checkbox, input, select, type Errors } from '../layout.ts';
import type { Session } from '../service.ts';
import { csrfField } from '../layout.ts';
import { assetUrl } from '../assets.ts';

const checkers = { create: bodyChecker<FormInput>(CreateFormBody), update: bodyChecker<FormInput>(UpdateFormBody) };

export const STARTER_SCHEMA = {
  fields: [
    { name: 'email', type: 'email', required: true, rules: [] },
    { name: 'message', type: 'string', required: true, rules: [{ op: 'max_length', value: 5000 }] },
  ],
};

export interface KnowledgeBaseOption {
  id: string;
  name: string;
}

/** The API body the editor's fields describe; a JSON syntax error is reported on fields_schema. */
export function formInputFrom(body: unknown, mode: 'create' | 'update'): FormInput {
  let schema: unknown;
  try {
    schema = JSON.parse(text(body, 'fields_schema', false));
  } catch (error) {
    throw fail.validation({ fields_schema: [`is not valid JSON: ${(error as Error).message}`] });
  }
  const input: Record<string, unknown> = {
    name: text(body, 'name'),
    slug: text(body, 'slug'),
    visibility: text(body, 'visibility') || 'public',
    fields_schema: schema,
    spam_protection_enabled: flag(body, 'spam_protection_enabled'),
    spam_protection_strategy: text(body, 'spam_protection_strategy') || 'standard',
    spam_sensitivity: text(body, 'spam_sensitivity') || 'balanced',
    intent: optional(body, 'intent'),
    localisation_enabled: flag(body, 'localisation_enabled'),
    smart_reply_enabled: flag(body, 'smart_reply_enabled'),
    smart_replies_mode: text(body, 'smart_replies_mode') || 'draft',
    knowledge_base_id: optional(body, 'knowledge_base_id'),
    webhook_enabled: flag(body, 'webhook_enabled'),
    webhook_url: optional(body, 'webhook_url'),
    reply_email_field: optional(body, 'reply_email_field'),
    captcha_provider: text(body, 'captcha_provider') || 'none',
    captcha_site_key: optional(body, 'captcha_site_key'),
    redirect_url: optional(body, 'redirect_url'),
    allowed_origins: originLines(text(body, 'allowed_origins', false)),
  };
  // Write-only: left empty, the stored secret stays.
  const secret = optional(body, 'webhook_secret');
  if (secret !== null) input.webhook_secret = secret;
  const captchaSecret = optional(body, 'captcha_secret');
  if (captchaSecret !== null) input.captcha_secret = captchaSecret;
  return checkers[mode](input);
}

/** One origin a line (or separated by spaces or commas), as the textarea holds them. */
const originLines = (value: string) => value.split(/[\s,]+/).filter((line) => line !== '');

export interface EditorValues {
  name: string;
  slug: string;
  visibility: string;
  fieldsJson: string;
  settings: Record<string, unknown>;
}

/**
 * A new form made here starts with spam protection on (`standard`, no credits), shown ticked so the owner sees the
 * choice; the API's defaults stay as the spec says (off), since an API client states what it wants.
 */
const NEW_FORM_SETTINGS = { spam_protection_enabled: true, spam_protection_strategy: 'standard', spam_sensitivity: 'balanced' };

export function valuesOf(form: FormRecord | null): EditorValues {
  if (!form) {
    return { name: '', slug: '', visibility: 'public', fieldsJson: JSON.stringify(STARTER_SCHEMA, null, 2), settings: { ...NEW_FORM_SETTINGS } };
  }
  return {
    name: form.name,
    slug: form.slug,
    visibility: form.visibility,
    fieldsJson: JSON.stringify(form.version.schema, null, 2),
    settings: { ...form.settings },
  };
}

/** What the owner typed, to show again with the errors. */
export function valuesFromBody(body: unknown): EditorValues {
  const settings: Record<string, unknown> = {};
  for (const key of ['spam_protection_strategy', 'spam_sensitivity', 'intent', 'smart_replies_mode', 'knowledge_base_id', 'webhook_url', 'reply_email_field', 'captcha_provider', 'captcha_site_key', 'redirect_url']) {
    settings[key] = text(body, key);
  }
  settings.allowed_origins = originLines(text(body, 'allowed_origins', false));
  for (const key of ['spam_protection_enabled', 'localisation_enabled', 'smart_reply_enabled', 'webhook_enabled']) settings[key] = flag(body, key);
  return { name: text(body, 'name'), slug: text(body, 'slug'), visibility: text(body, 'visibility'), fieldsJson: text(body, 'fields_schema', false), settings };
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** Settings that matter only while a switch is on: dashboard.js hides them while it is off (all show without JS). */
function shownBy(name: string, content: Html): Html {
  return html`<div class="depends" data-shown-by="${name}">${content}</div>`;
}

function settingsFields(v: EditorValues, errors: Errors, knowledgeBases: KnowledgeBaseOption[], creating: boolean): Html {
  const s = v.settings;
  const kbControl = select({
    name: 'knowledge_base_id',
    label: 'Knowledge base',
    value: str(s.knowledge_base_id),
    options: [['', 'None'], ...knowledgeBases.map((kb): [string, string] => [kb.id, kb.name])],
    errors,
    hint: knowledgeBases.length ? undefined : 'Create one on the Knowledge page first.',
  });
  return html`<fieldset class="panel">
  <legend>Spam protection</legend>
  ${checkbox({ name: 'spam_protection_enabled', label: 'Check submissions for spam', checked: s.spam_protection_enabled === true })}
  ${shownBy('spam_protection_enabled', html`${select({ name: 'spam_protection_strategy', label: 'Strategy', value: str(s.spam_protection_strategy) || 'standard', options: [['standard', 'Standard (rules and classifier)'], ['intelligent', 'Intelligent (uses AI credits)']], errors })}
  ${select({ name: 'spam_sensitivity', label: 'Sensitivity', value: str(s.spam_sensitivity) || 'balanced', options: [['low', 'Low (flag only clear spam)'], ['balanced', 'Balanced'], ['high', 'High (catch more; check the spam folder)']], errors, hint: 'High catches more spam and flags more real messages by mistake; low the reverse.' })}
  <div class="field${errors.intent ? ' invalid' : ''}">
    <label for="f-intent">Intent</label>
    <textarea id="f-intent" name="intent" rows="2" maxlength="1000" aria-describedby="f-intent-hint">${str(s.intent)}</textarea>
    <p class="hint" id="f-intent-hint">What the form is for, in plain words; intelligent spam checks judge submissions against it.</p>
    ${errors.intent ? html`<p class="error">${errors.intent}</p>` : ''}
  </div>`)}
</fieldset>
<fieldset class="panel">
  <legend>Language and replies</legend>
  ${checkbox({ name: 'localisation_enabled', label: 'Translate submissions into my language', checked: s.localisation_enabled === true })}
  ${checkbox({ name: 'smart_reply_enabled', label: 'Draft smart replies from a knowledge base', checked: s.smart_reply_enabled === true })}
  ${shownBy('smart_reply_enabled', html`${select({ name: 'smart_replies_mode', label: 'Reply mode', value: str(s.smart_replies_mode) || 'draft', options: [['draft', 'Draft (I review and send)'], ['auto', 'Automatic (send at once)']], errors })}
  ${kbControl}
  ${input({ name: 'reply_email_field', label: 'Reply to the address in field', value: str(s.reply_email_field), errors, hint: 'The email field replies go to; empty: the first email field.' })}`)}
</fieldset>
<fieldset class="panel">
  <legend>Plain HTML forms</legend>
  ${input({ name: 'redirect_url', label: 'Thank-you page URL', type: 'url', value: str(s.redirect_url), errors, hint: 'Where visitors go after sending the form; empty: Intake\'s own thank-you page.' })}
  <div class="field${errors.allowed_origins ? ' invalid' : ''}">
    <label for="f-allowed_origins">Websites allowed to post</label>
    <textarea id="f-allowed_origins" name="allowed_origins" rows="3" spellcheck="false" aria-describedby="${errors.allowed_origins ? 'f-allowed_origins-error' : 'f-allowed_origins-hint'}">${
      Array.isArray(s.allowed_origins) ? s.allowed_origins.join('\n') : ''
    }</textarea>
    <p class="hint" id="f-allowed_origins-hint">One origin a line, such as https://example.com; posts from other sites are refused (403). Empty: any site.</p>
    ${errors.allowed_origins ? html`<p class="error" id="f-allowed_origins-error">${errors.allowed_origins}</p>` : ''}
  </div>
</fieldset>
<fieldset class="panel">
  <legend>Form webhook</legend>
  ${checkbox({ name: 'webhook_enabled', label: 'Send each submission to a webhook', checked: s.webhook_enabled === true })}
  ${shownBy('webhook_enabled', html`${input({ name: 'webhook_url', label: 'Webhook URL', type: 'url', value: str(s.webhook_url), errors, hint: 'HTTPS. More destinations on the Notifications page.' })}
  ${input({
    name: 'webhook_secret', label: 'Webhook secret', type: 'password', errors, autocomplete: 'off',
    hint: creating ? 'Optional: the receiver checks each request with it. Stored write-only.' : 'Write-only: leave empty to keep the current one.',
  })}`)}
</fieldset>
<fieldset class="panel">
  <legend>CAPTCHA</legend>
  ${select({
    name: 'captcha_provider', label: 'CAPTCHA', value: str(s.captcha_provider) || 'none', errors,
    options: [['none', 'None'], ['altcha', 'ALTCHA (proof of work served by Intake, no third party)'], ['turnstile', 'Cloudflare Turnstile'], ['hcaptcha', 'hCaptcha'], ['recaptcha', 'Google reCAPTCHA (v2 or v3)']],
    hint: 'Submissions without a valid solution are refused. Turnstile, hCaptcha and reCAPTCHA need the keys from their dashboards.',
  })}
  ${input({ name: 'captcha_site_key', label: 'Site key', value: str(s.captcha_site_key), errors, autocomplete: 'off', hint: 'Turnstile, hCaptcha, reCAPTCHA: the public key your page shows.' })}
  ${input({
    name: 'captcha_secret', label: 'Secret key', type: 'password', errors, autocomplete: 'off',
    hint: creating ? 'Turnstile, hCaptcha, reCAPTCHA: Intake verifies tokens with it. Stored write-only.' : 'Write-only: leave empty to keep the current one.',
  })}
</fieldset>`;
}

export function editorForm(o: {
  session: Session;
  action: string;
  submit: string;
  values: EditorValues;
  errors: Errors;
  knowledgeBases: KnowledgeBaseOption[];
  /** A new form: dashboard.js fills the slug from the name until the slug is typed by hand. */
  suggestSlug?: boolean;
}): Html {
  const v = o.values;
  const schemaError = o.errors.fields_schema;
  return html`<form method="post" action="${o.action}" class="editor" novalidate>
  ${csrfField(o.session)}
  <fieldset class="panel">
    <legend>Form</legend>
    <div class="row">
      ${input({ name: 'name', label: 'Name', value: v.name, errors: o.errors, required: true })}
      ${input({ name: 'slug', label: 'Slug', value: v.slug, errors: o.errors, required: true, hint: 'Lowercase letters, digits and hyphens; part of the endpoint URL.', attributes: o.suggestSlug ? html`data-slug-from="#f-name"` : undefined })}
    </div>
    ${select({ name: 'visibility', label: 'Visibility', value: v.visibility || 'public', options: [['public', 'Public: anyone may submit'], ['private', 'Private: submitters need a token']], errors: o.errors })}
  </fieldset>
  <fieldset class="panel fields-editor">
    <legend>Fields</legend>
    <div class="split">
      <div class="builder" id="builder" hidden aria-label="Field builder"></div>
      <div class="field json${schemaError ? ' invalid' : ''}">
        <label for="f-fields_schema">Fields as JSON</label>
        <textarea id="f-fields_schema" name="fields_schema" rows="18" spellcheck="false" class="code" data-builder="#builder" data-builder-module="${assetUrl('builder.js')}"${
          schemaError ? html` aria-invalid="true" aria-describedby="f-fields_schema-error"` : ''
        }>${v.fieldsJson}</textarea>
        ${schemaError ? html`<p class="error" id="f-fields_schema-error">${schemaError}</p>` : ''}
        <p class="hint">Types: string, email, number, boolean, date. Rules (<code>op</code>): required, honeypot (a trap field for bots), one_of and not_one_of (allowed or refused values), min_length and max_length, min and max, pattern, after and before (dates), each with an optional <code>when</code> condition.</p>
      </div>
    </div>
  </fieldset>
  ${settingsFields(v, o.errors, o.knowledgeBases, o.action === '/forms/new')}
  <div class="actions"><button type="submit" class="button primary">${o.submit}</button><a class="button secondary" href="/forms">Cancel</a></div>
</form>`;
}
