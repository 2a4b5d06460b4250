// Route schemas for the submission endpoint and submission management.
import { Type } from 'typebox';
import { FieldDefinitionOutput } from '../forms/schemas.ts';
import { ERROR_BODIES } from '../http/error-docs.ts';

export const EndpointParams = Type.Object({ segment: Type.String(), slug: Type.String() });

export const SubmitBody = Type.Object(
  {},
  { additionalProperties: true, description: "A JSON object whose keys are the form's field names; discover them with GET first." },
);

export const Accepted = Type.Object({
  id: Type.String({ format: 'uuid' }),
  data: Type.Object({}, { additionalProperties: true }),
  created_at: Type.String({ format: 'date-time' }),
});

// The public family's body (src/http/error-docs.ts), as every route of the submission endpoint answers it.
const publicError = ERROR_BODIES.Error;
export const PublicErrors = { 400: publicError, 401: publicError, 403: publicError, 404: publicError, 413: publicError, 415: publicError, 429: publicError };

export const DiscoveryOutput = Type.Object({
  name: Type.String(),
  slug: Type.String(),
  endpoint: Type.String(),
  html_endpoint: Type.String({ description: 'For <form action> in a plain HTML page: urlencoded or multipart posts, answered with a 303 to a thank-you page' }),
  method: Type.Literal('POST'),
  content_type: Type.Literal('application/json'),
  visibility: Type.Enum(['public', 'private']),
  version: Type.Integer(),
  fields: Type.Array(FieldDefinitionOutput),
  files: Type.Optional(Type.Object({
    endpoint: Type.String({ description: 'Where files are posted: the HTML endpoint, as multipart/form-data' }),
    content_type: Type.Literal('multipart/form-data'),
    accept: Type.Literal('application/json', { description: 'Send this Accept header for the JSON answers (201 { id, data, created_at }, the JSON error bodies)' }),
    max_upload_bytes: Type.Integer({ description: 'All files of one submission together' }),
    description: Type.String(),
    fields: Type.Array(Type.Object({ name: Type.String(), max_files: Type.Integer(), max_file_size: Type.Integer(), accept: Type.Array(Type.String()) })),
  }, { description: 'Present when the form has file fields: how to send them' })),
  authentication: Type.Optional(
    Type.Object({ type: Type.String(), header: Type.String(), format: Type.String(), description: Type.String() }),
  ),
  captcha: Type.Optional(Type.Object({
    provider: Type.Enum(['altcha', 'turnstile', 'hcaptcha', 'recaptcha']),
    field: Type.String({ description: 'The body member the solution or token goes in; it is not stored as data' }),
    challenge_url: Type.Optional(Type.String({ description: 'altcha: where the widget (or a client) gets a challenge to solve' })),
    widget_script: Type.Optional(Type.String({ description: 'altcha: the widget, served by Intake' })),
    site_key: Type.Optional(Type.String({ description: "turnstile, hcaptcha, recaptcha: the site key the provider's widget needs" })),
  }, { description: 'Present when the form requires a CAPTCHA: a submission without a valid solution is refused with 403 captcha_failed' })),
});

/** The ALTCHA widget's challenge JSON, as altcha-lib v2 signs it. */
export const AltchaChallenge = Type.Object({
  parameters: Type.Object({
    algorithm: Type.String(),
    nonce: Type.String(),
    salt: Type.String(),
    cost: Type.Integer(),
    keyLength: Type.Integer(),
    keyPrefix: Type.String(),
    keySignature: Type.Optional(Type.String()),
    expiresAt: Type.Integer({ description: 'Unix seconds' }),
    data: Type.Object({ form: Type.String() }, { additionalProperties: true }),
  }, { additionalProperties: true }),
  signature: Type.String(),
});

const nullable = (schema: object) => Type.Unsafe({ ...schema, nullable: true, type: [(schema as { type: string }).type, 'null'] });

const processingStatus = (options?: { description: string }) => Type.Enum(['pending', 'processing', 'completed', 'skipped', 'failed'], options);
const replyStatus = (options?: { description: string }) => Type.Enum(['pending', 'completed', 'sent', 'failed'], options);

const QUOTED = {
  type: 'object',
  required: ['passage', 'heading', 'sentence'],
  properties: { passage: { type: 'integer' }, heading: { type: ['string', 'null'], nullable: true }, sentence: { type: 'string' } },
};

export const SubmissionOutput = Type.Object({
  id: Type.String({ format: 'uuid' }),
  data: Type.Object({}, { additionalProperties: true }),
  created_at: Type.String({ format: 'date-time' }),
  processing_status: processingStatus(),
  processing_reason: nullable({ type: 'string' }),
  spam_flag: Type.Boolean(),
  spam_confidence: nullable({ type: 'number' }),
  spam_reason: nullable({ type: 'string' }),
  original_language: nullable({ type: 'string' }),
  translated_data: nullable({ type: 'object', additionalProperties: true }),
  reply_status: replyStatus(),
  reply_subject: nullable({ type: 'string' }),
  reply_content: nullable({ type: 'string' }),
  reply_reason: nullable({
    type: 'string',
    description: 'Why the reply is as it is: a code, then details. `no_answer_in_knowledge_base: best passage N ("heading"), score S, needs T (coverage C, margin M): "closest sentence"`; '
      + '`partly_answered: question 2 of 2 not answered, held for a person; …`; `held_for_review: …` (a draft of an `auto` form under the auto gate, kept for a person); `smart_replies_disabled`, `spam`, `ai_credits_exhausted`, `reply_not_translated: …`, `no_recipient: …`, `send_failed: …`',
  }),
  reply_confidence: nullable({
    type: 'object',
    description: 'How sure the drafted reply is, for a person to judge it: `level` (`high`: passes the gate of `auto` mode and may be sent unread; `medium`, `low`: '
      + 'a draft, held for a person in `auto` mode too), `score` (coverage² × margin of the least sure question, 0 to 1), `quoted` (the passage, from 0, its heading and the '
      + 'sentence quoted for each question) and, for `medium` and `low`, `alternative`: the next-best passage\'s sentence and the quoted sentence it would replace. Null for a reply written by a model or a person.',
    required: ['level', 'score', 'quoted', 'alternative'],
    properties: {
      level: { type: 'string', enum: ['high', 'medium', 'low'] },
      score: { type: 'number' },
      quoted: { type: 'array', items: QUOTED },
      alternative: { ...QUOTED, nullable: true, type: ['object', 'null'], required: [...QUOTED.required, 'replaces'], properties: { ...QUOTED.properties, replaces: { type: 'string' } } },
    },
  }),
  replied_at: nullable({ type: 'string', format: 'date-time' }),
  processed_at: nullable({ type: 'string', format: 'date-time' }),
  spam_corrected_at: nullable({ type: 'string', format: 'date-time' }),
  metadata: Type.Object({}, { additionalProperties: true, description: 'ip, user_agent, referer, origin, utm' }),
  read: Type.Boolean({ description: 'Opened in the dashboard or marked read (reading it through the API or MCP does not mark it)' }),
  read_at: nullable({ type: 'string', format: 'date-time' }),
  done: Type.Boolean({ description: "The owner's archive, beside spam: done submissions leave the dashboard's Inbox tab" }),
  done_at: nullable({ type: 'string', format: 'date-time' }),
  read_by: nullable({ type: 'string', description: 'The member (their email then) who last marked it read, in the dashboard (opening it) or the API; null when nobody did or it is unread' }),
  done_by: nullable({ type: 'string', description: 'The member (their email then) who last marked it done or not done; null when nobody did' }),
  spam_marked_by: nullable({ type: 'string', description: 'The member (their email then) who last marked it spam or not spam; null while spam_flag is the pipeline\'s verdict' }),
  reply_edited_by: nullable({ type: 'string', description: 'The member (their email then) who last edited the reply draft; null for a draft as the pipeline made it' }),
  reply_sent_by: nullable({ type: 'string', description: 'The member (their email then) who sent the reply; null when unsent or sent automatically' }),
  files: Type.Optional(Type.Array(Type.Object({
    id: Type.String({ format: 'uuid' }),
    field: Type.String(),
    filename: Type.String(),
    content_type: Type.String({ description: 'Decided from the bytes' }),
    size: Type.Integer(),
    sha256: Type.String(),
    quarantine: nullable({ type: 'string', description: 'The signature the malware scanner (INTAKE_CLAMAV_URL) found: the file is quarantined, with no download_url; null otherwise' }),
    download_url: Type.Optional(Type.String({ description: 'GET with the same credentials: the bytes, as an attachment. Absent for a quarantined file' })),
  }), { description: 'Get a submission only: its uploaded files, each with its download route' })),
});

export const FileParams = Type.Object({ form_id: Type.String(), id: Type.String(), file_id: Type.String() });

export const SubmissionPatchBody = Type.Object(
  {
    spam_flag: Type.Optional(Type.Boolean({ description: 'true: this is spam; false: this is not spam' })),
    read: Type.Optional(Type.Boolean({ description: 'true: mark read; false: mark unread' })),
    done: Type.Optional(Type.Boolean({ description: 'true: mark done (archive); false: back to the inbox' })),
    reply_subject: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*$', 'x-message': 'must be one line of 1 to 200 characters' })),
    reply_content: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000, description: 'The reply text; editing it makes or replaces the draft' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const SubmissionParams = Type.Object({ form_id: Type.String(), id: Type.String() });
export const FormParams = Type.Object({ form_id: Type.String() });

/** A date (YYYY-MM-DD, midnight UTC) or an ISO 8601 timestamp with its offset. */
const DateOrTime = (description: string) => Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], { description });

export const ListQuery = Type.Object(
  {
    filter: Type.Enum(['inbox', 'spam', 'all'], { default: 'inbox', description: 'inbox (not spam), spam or all' }),
    spam: Type.Optional(Type.Boolean({ description: 'Shorthand: true is filter=spam, false is filter=inbox; beside a filter, both must hold' })),
    done: Type.Optional(Type.Boolean({ description: 'true: only done submissions; false: only those not done; absent: both (the filter alone decides)' })),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text a submitted value or its translation contains, case-insensitively (not field names)' })),
    processing_status: Type.Optional(processingStatus({ description: 'Only submissions whose processing is at this status (e.g. failed)' })),
    reply_status: Type.Optional(replyStatus({ description: 'Only submissions whose smart reply is at this status' })),
    since: Type.Optional(DateOrTime('Only submissions created at or after this time (a date: its midnight UTC)')),
    until: Type.Optional(DateOrTime('Only submissions created before this time (a date: to the end of that day, UTC)')),
    sort_by: Type.Enum(['created_at'], { default: 'created_at', description: 'The order is by arrival (created_at), the one order pages stay exact in' }),
    sort_order: Type.Enum(['desc', 'asc'], { default: 'desc', description: 'desc: newest first (the default); asc: oldest first' }),
    page: Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 }),
    page_size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  },
  { additionalProperties: false },
);

export const SubmissionPage = Type.Object({
  data: Type.Array(SubmissionOutput),
  meta: Type.Object({
    current_page: Type.Integer(),
    total_pages: Type.Integer(),
    total_count: Type.Integer(),
    page_size: Type.Integer(),
  }),
});

// The submissions family's body (src/http/error-docs.ts): its code is the HTTP status.
const managementError = ERROR_BODIES.SubmissionsError;
export const ManagementErrors = { 400: managementError, 401: managementError, 404: managementError, 422: managementError };

const Filter = Type.Enum(['inbox', 'spam', 'all'], { description: 'As the listing: inbox (not spam), spam, all' });

const BulkAction = Type.Enum(['read', 'unread', 'done', 'not_done', 'spam', 'not_spam', 'delete']);

/** Ids or a where, never both: two shapes, so that the document says what the server enforces. */
export const BulkBody = Type.Union([
  Type.Object({
    action: BulkAction,
    ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 500, description: '1 to 500 submission ids' }),
  }, { additionalProperties: false, title: 'By ids' }),
  Type.Object({
    action: BulkAction,
    where: Type.Object({
      filter: Filter,
      done: Type.Optional(Type.Boolean()),
      text: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text a submitted value contains (not a field name), case-insensitively' })),
      processing_status: Type.Optional(processingStatus({ description: 'Only submissions whose processing is at this status (e.g. failed)' })),
    }, { additionalProperties: false, description: 'Every submission this selects when the request arrives (up to 100,000 a request)' }),
  }, { additionalProperties: false, title: 'By a where' }),
], { description: 'Give ids or where, not both' });

export const BulkOutput = Type.Object({
  action: Type.String(),
  matched: Type.Integer({ description: 'Submissions the ids named or the where selected' }),
  changed: Type.Integer(),
  unchanged: Type.Integer({ description: 'Already in the state asked for' }),
  failed: Type.Array(Type.Object({ id: Type.String(), code: Type.String(), message: Type.String() }), { description: 'The first 100 that could not be changed' }),
  failed_count: Type.Integer(),
  more: Type.Boolean({ description: 'The where selects more than one request acts on: send it again' }),
});
