// Route schemas for the forms API: they validate requests and generate /openapi.json.
// Response schemas also act as an allow-list: a column that is not named here never leaves the server.
import { Type } from 'typebox';
import { ERROR_BODIES } from '../http/error-docs.ts';
import { explainWith } from '../http/route-validation.ts';
import { FIELD_TYPES, parseFieldsSchema, type FieldType } from './field-schema.ts';

/** scheme://host[:port] (a name, an IPv4 or a bracketed IPv6 address, a port up to 65535), an optional final slash. */
const ORIGIN_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*|\\[[0-9A-Fa-f:.]+\\])'
  + '(?::(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?/?$';
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
/**
 * An http(s) URL without a user name or password, as src/delivery/outbound/url-check.ts reads it
 * (the scheme in any case): one message for each, and the scheme and credentials judged only on a URL.
 */
export const HTTP_URL = {
  format: 'uri', 'x-message': 'is not a valid URL',
  if: { format: 'uri' },
  then: {
    allOf: [
      { pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://', 'x-message': 'must be an HTTPS URL' },
      { pattern: '^\\s*[A-Za-z][A-Za-z0-9+.-]*://[^/?#@\\\\]*(?:[/?#\\\\]|$)', 'x-message': 'must not contain a user name or password' },
    ],
  },
};
const NULLABLE_UUID = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid' });
const RETENTION_DAYS = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 3650, description, 'x-message': 'must be a whole number of days from 1 to 3650, or null' });
const NULLABLE_STRING = (options: object) => Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

/** What conditions compare with: nothing (filled, empty), a list (one_of, not_one_of) or one value. */
const condition = {
  description: "Applies the rule only when another field's value meets it. `field` must name another field of the form, "
    + 'and `value` take its type (gt, lt, gte and lte compare number and date fields only).',
  oneOf: [
    { type: 'object', required: ['field', 'is'], additionalProperties: false, properties: { field: { type: 'string' }, is: { enum: ['filled', 'empty'] } } },
    {
      type: 'object', required: ['field', 'is', 'value'], additionalProperties: false,
      properties: { field: { type: 'string' }, is: { enum: ['one_of', 'not_one_of'] }, value: { type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: { type: ['string', 'number'] } } },
    },
    {
      type: 'object', required: ['field', 'is', 'value'], additionalProperties: false,
      properties: { field: { type: 'string' }, is: { enum: ['eq', 'neq', 'gt', 'lt', 'gte', 'lte'] }, value: { type: ['string', 'number', 'boolean'] } },
    },
  ],
};

const list = (type: 'string' | 'number') => ({ type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: { type } });
/** A rule: its `op`, the value or values it takes, and an optional condition (a honeypot takes none). */
const ruleOf = (ops: string[], members: Record<string, object> = {}) => ({
  type: 'object', required: ['op', ...Object.keys(members)], additionalProperties: false,
  properties: { op: ops.length === 1 ? { const: ops[0] } : { enum: ops }, ...members, ...(ops[0] !== 'honeypot' && { when: condition }) },
});
const RULES = {
  required: ruleOf(['required']),
  honeypot: ruleOf(['honeypot']),
  lists: (type: 'string' | 'number') => ruleOf(['one_of', 'not_one_of'], { values: list(type) }),
  lengths: ruleOf(['min_length', 'max_length'], { value: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } }),
  bounds: ruleOf(['min', 'max'], { value: { type: 'number' } }),
  pattern: ruleOf(['pattern'], { value: { type: 'string', maxLength: 500, description: 'A regular expression (RE2 syntax: no look-around, no back-references)' } }),
  dates: ruleOf(['after', 'before'], { value: { type: 'string', format: 'date' } }),
  // File limits take no condition: the upload is cut off while it streams, before other fields are known.
  maxFiles: { type: 'object', required: ['op', 'value'], additionalProperties: false, properties: { op: { const: 'max_files' }, value: { type: 'integer', minimum: 1, maximum: 20 } } },
  maxFileSize: {
    type: 'object', required: ['op', 'value'], additionalProperties: false,
    properties: { op: { const: 'max_file_size' }, value: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Bytes per file (default 10 MiB); INTAKE_MAX_UPLOAD_BYTES bounds a submission\'s files together' } },
  },
  accept: {
    type: 'object', required: ['op', 'value'], additionalProperties: false,
    properties: {
      op: { const: 'accept' },
      value: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', maxLength: 128, pattern: '^\\s*(?:\\.[A-Za-z0-9]{1,16}|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}/(?:\\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}))\\s*$' }, description: 'MIME types (image/png, image/*) or extensions (.docx); the type is decided from the bytes' },
    },
  },
};
/** The rules each field type takes (field-schema.ts, TYPES_BY_OP). */
const RULES_BY_TYPE: Record<FieldType, object[]> = {
  string: [RULES.required, RULES.honeypot, RULES.lists('string'), RULES.lengths, RULES.pattern],
  email: [RULES.required, RULES.lists('string'), RULES.lengths, RULES.pattern],
  number: [RULES.required, RULES.lists('number'), RULES.bounds],
  boolean: [RULES.required],
  date: [RULES.required, RULES.dates],
  file: [RULES.required, RULES.maxFiles, RULES.maxFileSize, RULES.accept],
};

/** One field as a form's fields_schema gives it: a name, a type, and the rules that type takes. */
export const FieldDefinition = {
  oneOf: FIELD_TYPES.map((type) => ({
    type: 'object', required: ['name', 'type'], additionalProperties: false,
    properties: {
      name: {
        type: 'string', minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$', not: { enum: ['__proto__', 'constructor', 'prototype'] },
        description: 'Unique in the form; no control characters',
      },
      type: { const: type },
      required: { type: 'boolean' },
      // A type with one rule (boolean: required) takes it alone: a oneOf of one is a linter's warning.
      rules: { type: 'array', maxItems: 20, items: RULES_BY_TYPE[type].length === 1 ? RULES_BY_TYPE[type][0] : { oneOf: RULES_BY_TYPE[type] } },
    },
  })),
};

/**
 * The fields of a form, as field-schema.ts checks them. What JSON Schema cannot say is in the
 * description, and field-schema.ts says it (x-explained-by): names unique, conditions on another
 * field of the form and with a value of its type, regular expressions that compile, a minimum not
 * above its maximum, a honeypot neither required nor with other rules.
 */
export const FieldsSchemaInput = Type.Unsafe<{ fields: unknown[] }>({
  type: 'object', required: ['fields'], additionalProperties: false,
  properties: { fields: { type: 'array', maxItems: 100, items: FieldDefinition } },
  'x-explained-by': 'fields_schema',
  description: 'The form fields: { fields: [FieldDefinition...] }. Beyond this schema: field names are unique; a condition names another field '
    + "of the form and its value takes that field's type; a pattern compiles; min_length is not above max_length, nor min above max; "
    + 'a honeypot field is neither required nor has other rules; a file field has each of max_files, max_file_size and accept at most once.',
});
explainWith('fields_schema', (value) => {
  const parsed = parseFieldsSchema(value);
  return parsed.ok ? [] : parsed.errors;
});

const settings = {
  spam_protection_enabled: Type.Boolean({ default: false }),
  spam_protection_strategy: Type.Enum(['standard', 'intelligent'], { default: 'standard' }),
  spam_sensitivity: Type.Enum(['low', 'balanced', 'high'], {
    default: 'balanced',
    description: 'Where both strategies draw the line: `high` flags more spam at the price of more legitimate messages flagged, '
      + '`low` fewer of both; `balanced` counts a legitimate message flagged as costly as ten spam missed (docs/spam.md)',
  }),
  localisation_enabled: Type.Boolean({ default: false }),
  smart_reply_enabled: Type.Boolean({ default: false }),
  smart_replies_mode: Type.Enum(['draft', 'auto'], { default: 'draft' }),
  knowledge_base_id: NULLABLE_UUID,
  reply_email_field: NULLABLE_STRING({ maxLength: 64, description: 'The email field smart replies are sent to; by default the first email field. It must name a field of type email of the form' }),
  webhook_enabled: Type.Boolean({ default: false }),
  webhook_url: NULLABLE_STRING({
    maxLength: 2048, ...HTTP_URL,
    description: 'HTTPS URL (plain HTTP only to a host the operator allows), of a public address; required when webhook_enabled is true',
  }),
  intent: NULLABLE_STRING({ maxLength: 1000, description: "Plain-text purpose of the form; intelligent spam detection judges submissions against it" }),
  retention_days: RETENTION_DAYS('Days a submission is kept before the retention purge deletes it; null (the default): for ever'),
  spam_retention_days: RETENTION_DAYS('Days a spam submission is kept; null: as long as the others. 30 for a new form'),
  captcha_provider: Type.Enum(['none', 'altcha', 'turnstile', 'hcaptcha', 'recaptcha'], {
    default: 'none',
    description: 'Who checks that a person sent each submission: `altcha` (a proof of work served by Intake itself, no third party), '
      + 'or the hosted `turnstile`, `hcaptcha`, `recaptcha` (v2 or v3), which need captcha_site_key and captcha_secret. '
      + 'The discovery document says what a client must send; a missing or wrong token is refused with 403 captcha_failed.',
  }),
  captcha_site_key: NULLABLE_STRING({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$', 'x-message': 'must be the site key as the provider shows it', description: "The hosted provider's site key (public; the widget on your page shows it); required for turnstile, hcaptcha and recaptcha" }),
  redirect_url: NULLABLE_STRING({
    maxLength: 2048, format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\\\\]+(?:[/?#]|$)', 'x-message': 'must be an http(s) URL without a user name or password',
    description: 'Where a browser goes after a successful plain HTML post (303); null (the default): Intake\'s own thank-you page',
  }),
  allowed_origins: Type.Array(
    Type.String({ maxLength: 200, pattern: ORIGIN_PATTERN, 'x-message': 'must be an origin: http(s)://host[:port], without a path' }),
    {
      maxItems: 50, default: [],
      description: 'The websites (scheme://host[:port]) that may post to the form; a post whose Origin (else Referer) is another site gets 403 '
        + 'origin_not_allowed, one with neither header is accepted and counted as a spam signal. Empty (the default): any site. Stored normalised.',
    },
  ),
};

const writable = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  slug: Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: SLUG_PATTERN,
    'x-message': 'must be lowercase letters and digits, optionally separated by single hyphens',
  }),
  visibility: Type.Enum(['public', 'private']),
  fields_schema: FieldsSchemaInput,
  ...settings,
  webhook_secret: NULLABLE_STRING({ minLength: 8, maxLength: 128, writeOnly: true }),
  smart_reply_email_field: NULLABLE_STRING({
    maxLength: 64, writeOnly: true,
    description: "reply_email_field under the hosted service's name, accepted as it (422 when both are given and differ); answers show reply_email_field",
  }),
  captcha_secret: NULLABLE_STRING({
    minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$', writeOnly: true, 'x-message': 'must be the secret key as the provider shows it',
    description: "The hosted provider's secret key, which Intake verifies tokens with; required for turnstile, hcaptcha and recaptcha. Write-only",
  }),
};

type Writable = typeof writable;
const optional = Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, Type.Optional(v)])) as {
  [K in keyof Writable]: ReturnType<typeof Type.Optional<Writable[K]>>;
};

/**
 * The spec's conditional requirements. On create the body is the whole form, so each is required; on
 * update what the body leaves out stays as stored, so the body can only not clear it (a null).
 */
const REQUIREMENTS: Array<{ when: string; is?: string; needs: string[] }> = [
  { when: 'webhook_enabled', needs: ['webhook_url', 'webhook_secret'] },
  { when: 'smart_reply_enabled', needs: ['knowledge_base_id'] },
  ...['turnstile', 'hcaptcha', 'recaptcha'].map((provider) => ({ when: 'captcha_provider', is: provider, needs: ['captcha_site_key', 'captcha_secret'] })),
];
const conditional = (whole: boolean) => REQUIREMENTS.map(({ when, is, needs }) => {
  const message = `is required when ${when} is ${is ?? 'true'}`;
  return {
    if: { properties: { [when]: { const: is ?? true } }, required: [when] },
    then: {
      ...(whole && { required: needs }), 'x-message': message,
      properties: Object.fromEntries(needs.map((name) => [name, { not: { type: 'null' }, 'x-message': message }])),
    },
  };
});

export const CreateFormBody = Type.Object(
  { ...optional, name: writable.name, slug: writable.slug, visibility: writable.visibility, fields_schema: writable.fields_schema },
  { additionalProperties: false, allOf: conditional(true) },
);
export const UpdateFormBody = Type.Object(optional, { additionalProperties: false, allOf: conditional(false) });

const storedRule = Type.Object({}, { additionalProperties: true });
export const FieldDefinitionOutput = Type.Object({
  name: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
  rules: Type.Array(storedRule),
});

const formSummary = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  visibility: Type.Enum(['public', 'private']),
  submission_count: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  endpoint: Type.String({ description: 'Full submission URL; use it as given.' }),
};

export const FormSummary = Type.Object(formSummary);

/**
 * The settings as answered: the input's checks left out. A response schema with an if/then (HTTP_URL)
 * makes the serializer compile a validator of its own, and warn about it at every start.
 */
const settingsOutput = {
  ...settings,
  webhook_url: NULLABLE_STRING({ description: 'The HTTPS URL the form\'s own webhook posts to; null when none' }),
  redirect_url: NULLABLE_STRING({ description: 'Where a browser goes after a successful plain HTML post; null: Intake\'s thank-you page' }),
  allowed_origins: Type.Array(Type.String(), { description: 'The websites that may post to the form; empty: any' }),
};

export const FormOutput = Type.Object({
  ...formSummary,
  html_endpoint: Type.String({ description: 'Full URL for <form action> in a plain HTML page (urlencoded or multipart posts, a 303 to a thank-you page); versioned like endpoint; use it as given.' }),
  schema: Type.Object({ fields: Type.Array(FieldDefinitionOutput) }),
  version: Type.Integer({ description: 'Schema version; each change to fields_schema adds one.' }),
  updated_at: Type.String({ format: 'date-time' }),
  ...settingsOutput,
});

export const CreatedFormOutput = Type.Object({
  ...FormOutput.properties,
  submission_token: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'Private forms only: the bearer token for submitting. Shown once, never again.',
  }),
});

export const UpdatedFormOutput = Type.Object({
  ...FormOutput.properties,
  submission_token: Type.Optional(
    Type.String({ description: 'Only when this update made a public form private: its new token, shown once.' }),
  ),
});

export const FormIdParams = Type.Object({ id: Type.String() });

/** The forms family's bodies (src/http/error-docs.ts): the 401 is plain text. */
export const FormErrors = {
  401: Type.String({ description: 'Plain text: Unauthorized' }),
  404: ERROR_BODIES.FormsNotFound,
  422: ERROR_BODIES.FormsError,
};
