// Route schemas for the forms API: they validate requests and generate /openapi.json.
// Response schemas also act as an allow-list: a column that is not named here never leaves the server.
import { Type } from 'typebox';

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const NULLABLE_UUID = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid' });
const RETENTION_DAYS = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 3650, description, 'x-message': 'must be a whole number of days from 1 to 3650, or null' });
const NULLABLE_STRING = (options: object) => Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

const rule = Type.Object(
  {
    op: Type.String({ description: 'required, honeypot, one_of, not_one_of, min_length, max_length, min, max, pattern, after, before' }),
    value: Type.Optional(Type.Unknown()),
    values: Type.Optional(Type.Array(Type.Unknown())),
    when: Type.Optional(Type.Object({ field: Type.String(), is: Type.String(), value: Type.Optional(Type.Unknown()) })),
  },
  { additionalProperties: true },
);

const fieldDefinition = Type.Object(
  {
    name: Type.String(),
    type: Type.String({ description: 'string, email, number, boolean or date' }),
    required: Type.Optional(Type.Boolean()),
    rules: Type.Optional(Type.Array(rule)),
  },
  { additionalProperties: true },
);

/** The detailed checks (types, rules, conditions) live in field-schema.ts, which names the offending field. */
export const FieldsSchemaInput = Type.Object(
  { fields: Type.Array(fieldDefinition) },
  { additionalProperties: true, description: 'The form fields: { fields: [FieldDefinition...] }' },
);

const settings = {
  spam_protection_enabled: Type.Boolean({ default: false }),
  spam_protection_strategy: Type.Enum(['standard', 'intelligent'], { default: 'standard' }),
  localisation_enabled: Type.Boolean({ default: false }),
  smart_reply_enabled: Type.Boolean({ default: false }),
  smart_replies_mode: Type.Enum(['draft', 'auto'], { default: 'draft' }),
  knowledge_base_id: NULLABLE_UUID,
  reply_email_field: NULLABLE_STRING({ maxLength: 64, description: 'The email field smart replies are sent to; by default the first email field' }),
  webhook_enabled: Type.Boolean({ default: false }),
  webhook_url: NULLABLE_STRING({ maxLength: 2048, description: 'HTTPS URL; required when webhook_enabled is true' }),
  intent: NULLABLE_STRING({ maxLength: 1000, description: "Plain-text purpose of the form; intelligent spam detection judges submissions against it" }),
  retention_days: RETENTION_DAYS('Days a submission is kept before the retention purge deletes it; null (the default): for ever'),
  spam_retention_days: RETENTION_DAYS('Days a spam submission is kept; null: as long as the others. 30 for a new form'),
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
};

type Writable = typeof writable;
const optional = Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, Type.Optional(v)])) as {
  [K in keyof Writable]: ReturnType<typeof Type.Optional<Writable[K]>>;
};

export const CreateFormBody = Type.Object(
  { ...optional, name: writable.name, slug: writable.slug, visibility: writable.visibility, fields_schema: writable.fields_schema },
  { additionalProperties: false },
);
export const UpdateFormBody = Type.Object(optional, { additionalProperties: false });

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

export const FormOutput = Type.Object({
  ...formSummary,
  schema: Type.Object({ fields: Type.Array(FieldDefinitionOutput) }),
  version: Type.Integer({ description: 'Schema version; each change to fields_schema adds one.' }),
  updated_at: Type.String({ format: 'date-time' }),
  ...settings,
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

const errorDetails = Type.Record(Type.String(), Type.Array(Type.String()));
export const FormErrors = {
  401: Type.String({ description: 'Plain text: Unauthorized' }),
  404: Type.Object({ errors: Type.String() }),
  422: Type.Object({ errors: errorDetails }),
};
