// Route schemas for the submission endpoint and submission management.
import { Type } from 'typebox';
import { FieldDefinitionOutput } from '../forms/schemas.ts';

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

const publicError = Type.Object({
  error: Type.Object(
    {
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
      retry_after: Type.Optional(Type.Integer()),
      upgrade_url: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
});

export const PublicErrors = { 400: publicError, 401: publicError, 404: publicError, 413: publicError, 415: publicError, 429: publicError };

export const DiscoveryOutput = Type.Object({
  name: Type.String(),
  slug: Type.String(),
  endpoint: Type.String(),
  method: Type.Literal('POST'),
  content_type: Type.Literal('application/json'),
  visibility: Type.Enum(['public', 'private']),
  version: Type.Integer(),
  fields: Type.Array(FieldDefinitionOutput),
  authentication: Type.Optional(
    Type.Object({ type: Type.String(), header: Type.String(), format: Type.String(), description: Type.String() }),
  ),
});

const nullable = (schema: object) => Type.Unsafe({ ...schema, nullable: true, type: [(schema as { type: string }).type, 'null'] });

export const SubmissionOutput = Type.Object({
  id: Type.String({ format: 'uuid' }),
  data: Type.Object({}, { additionalProperties: true }),
  created_at: Type.String({ format: 'date-time' }),
  processing_status: Type.Enum(['pending', 'processing', 'completed', 'skipped', 'failed']),
  processing_reason: nullable({ type: 'string' }),
  spam_flag: Type.Boolean(),
  spam_confidence: nullable({ type: 'number' }),
  spam_reason: nullable({ type: 'string' }),
  original_language: nullable({ type: 'string' }),
  translated_data: nullable({ type: 'object', additionalProperties: true }),
  reply_status: Type.Enum(['pending', 'completed', 'sent', 'failed']),
  reply_subject: nullable({ type: 'string' }),
  reply_content: nullable({ type: 'string' }),
  reply_reason: nullable({
    type: 'string',
    description: 'Why the reply is as it is: a code, then details. `no_answer_in_knowledge_base: best passage N ("heading"), score S, needs T (coverage C, margin M): "closest sentence"`; '
      + '`partly_answered: question 2 of 2 not answered, held for a person; …`; `smart_replies_disabled`, `spam`, `ai_credits_exhausted`, `reply_not_translated: …`, `no_recipient: …`, `send_failed: …`',
  }),
  replied_at: nullable({ type: 'string', format: 'date-time' }),
  processed_at: nullable({ type: 'string', format: 'date-time' }),
  spam_corrected_at: nullable({ type: 'string', format: 'date-time' }),
  metadata: Type.Object({}, { additionalProperties: true, description: 'ip, user_agent, referer, origin, utm' }),
});

export const SubmissionPatchBody = Type.Object(
  {
    spam_flag: Type.Optional(Type.Boolean({ description: 'true: this is spam; false: this is not spam' })),
    reply_subject: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]*$', 'x-message': 'must be one line of 1 to 200 characters' })),
    reply_content: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000, description: 'The reply text; editing it makes or replaces the draft' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const SubmissionParams = Type.Object({ form_id: Type.String(), id: Type.String() });
export const FormParams = Type.Object({ form_id: Type.String() });

export const ListQuery = Type.Object(
  {
    filter: Type.Enum(['inbox', 'spam', 'all'], { default: 'inbox' }),
    page: Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1 }),
    page_size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  },
  { additionalProperties: true },
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

const managementError = Type.Object({ error: Type.Object({ code: Type.Union([Type.Integer(), Type.String()]), message: Type.String() }, { additionalProperties: true }) });
export const ManagementErrors = { 400: managementError, 401: managementError, 404: managementError, 422: managementError };
