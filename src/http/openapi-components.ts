// Named schemas in /openapi.json: Form, Submission, FieldDefinition, the error bodies of each family…
// under components.schemas, and `$ref`s to them from the operations, so that a generated client has
// one `Form` type rather than one anonymous type per operation.
//
// Why a transform of the document and not `$id` + app.addSchema: the route schemas stay exactly as
// they are, so Ajv (src/http/route-validation.ts, which rewrites schemas x-explained-by a parser) and
// Fastify's serializers compile the same schemas as before; nothing about a request changes. Only the
// copy @fastify/swagger documents is rewritten, in its `transform` (transformOperation): any
// sub-schema equal, member for member, to a named one below becomes a `$ref`. Equality rather than
// identity, because a schema spread into another (`{ ...FormOutput.properties }`) or repeated in a
// feature's schemas is still the same shape and should get the same name.
import { FieldDefinition, FieldDefinitionOutput, FieldsSchemaInput, CreateFormBody, CreatedFormOutput, FormOutput, FormSummary, UpdateFormBody, UpdatedFormOutput } from '../forms/schemas.ts';
import { Accepted, DiscoveryOutput, SubmissionOutput, SubmissionPage, SubmissionPatchBody } from '../submissions/schemas.ts';
import { KnowledgeErrors } from '../knowledge/schemas.ts';
import { ERROR_BODIES } from './error-docs.ts';
import { MemberOutput } from '../workspaces/schemas.ts';

/** Component name → the route schema it names. test/openapi.test.ts checks that each is used. */
export const NAMED_SCHEMAS: Record<string, object> = {
  Form: FormOutput,
  FormCreated: CreatedFormOutput,
  FormUpdated: UpdatedFormOutput,
  FormSummary,
  FormInput: CreateFormBody,
  FormChanges: UpdateFormBody,
  FieldsSchema: FieldsSchemaInput,
  FieldDefinition,
  FormField: FieldDefinitionOutput,
  Submission: SubmissionOutput,
  SubmissionPage,
  SubmissionChanges: SubmissionPatchBody,
  SubmissionAccepted: Accepted,
  FormDiscovery: DiscoveryOutput,
  Member: MemberOutput,
  ...ERROR_BODIES,
  // The knowledge family's 400, 404, 413 and 422: Error without the extra members.
  KnowledgeError: KnowledgeErrors[400],
};

const REF_PREFIX = '#/components/schemas/';

/** A schema's members in a fixed order, nested: two schemas are the same shape when their keys are equal. */
type Keyed = { key: string; value: unknown };

/**
 * The schema with every sub-schema equal to a named one replaced by a `$ref` to it; `except` keeps
 * the root itself (a component's own definition). Bottom-up, so each node is serialised once.
 */
function lift(node: unknown, names: Map<string, string>, except?: string): Keyed {
  if (Array.isArray(node)) {
    const items = node.map((item) => lift(item, names));
    return { key: `[${items.map((i) => i.key).join(',')}]`, value: items.map((i) => i.value) };
  }
  if (typeof node !== 'object' || node === null) return { key: JSON.stringify(node) ?? 'null', value: node };
  const members = Object.keys(node).map((name) => [name, lift((node as Record<string, unknown>)[name], names)] as const);
  // The key in sorted order; the value in the schema's own (a generated type lists members as written).
  const sorted = [...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = `{${sorted.map(([name, m]) => `${JSON.stringify(name)}:${m.key}`).join(',')}}`;
  const name = names.get(key);
  if (name !== undefined && name !== except) return { key, value: { $ref: `${REF_PREFIX}${name}` } };
  return { key, value: Object.fromEntries(members.map(([member, m]) => [member, m.value])) };
}

/** Keys are made from the schemas as their routes hold them (before any `$ref`), so nested names match too. */
function namesByKey(named: Record<string, object>): Map<string, string> {
  const none = new Map<string, string>();
  return new Map(Object.entries(named).map(([name, schema]) => [lift(schema, none).key, name]));
}

export function namedSchemas(named: Record<string, object> = NAMED_SCHEMAS) {
  const names = namesByKey(named);
  return {
    /** What goes under components.schemas (@fastify/swagger converts them to OpenAPI as it does the routes'). */
    components: Object.fromEntries(Object.entries(named).map(([name, schema]) => [name, lift(schema, names, name).value as Record<string, unknown>])),
    /** A route schema as documented: its body and responses with `$ref`s. */
    route<T extends { body?: unknown; response?: Record<string, unknown> }>(schema: T): T {
      return {
        ...schema,
        ...(schema.body !== undefined && { body: lift(schema.body, names).value }),
        ...(schema.response && { response: Object.fromEntries(Object.entries(schema.response).map(([status, body]) => [status, lift(body, names).value])) }),
      };
    },
  };
}
