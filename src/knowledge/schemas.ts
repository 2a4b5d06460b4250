// Route schemas of the knowledge-base API: they validate requests and generate /openapi.json.
import { Type } from 'typebox';

const name = Type.String({ minLength: 1, maxLength: 100 });
const content = Type.String({ pattern: '\\S', 'x-message': 'must not be empty', description: 'Plain text, Markdown (sections under headings) or question-and-answer pairs (lines starting `Q:` and `A:`); at most INTAKE_KB_MAX_BYTES bytes (UTF-8)' });
const signature = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000, description: 'Closes every reply made from this knowledge base' });

export const CreateKnowledgeBaseBody = Type.Object(
  { name, content, signature: Type.Optional(signature) },
  { additionalProperties: false },
);
export const UpdateKnowledgeBaseBody = Type.Object(
  { name: Type.Optional(name), content: Type.Optional(content), signature: Type.Optional(signature) },
  { additionalProperties: false },
);

const summary = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  signature: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
  version: Type.Integer({ description: 'Moves on with every change' }),
  passage_count: Type.Integer({ description: 'Passages the content was split into' }),
  linked_forms: Type.Integer({ description: 'Forms whose knowledge_base_id names this knowledge base' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const KnowledgeBaseSummaryOutput = Type.Object(summary);
export const KnowledgeBaseOutput = Type.Object({ ...summary, content: Type.String() });
export const DeletedKnowledgeBaseOutput = Type.Object({
  ...summary,
  content: Type.String(),
  smart_reply_disabled_on: Type.Array(Type.String(), { description: 'Slugs of the forms whose smart replies were turned off' }),
});
export const KnowledgeBaseParams = Type.Object({ id: Type.String() });

const errorBody = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  }),
});
export const KnowledgeErrors = { 400: errorBody, 401: errorBody, 404: errorBody, 413: errorBody, 422: errorBody };
