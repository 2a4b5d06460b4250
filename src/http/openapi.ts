// What /openapi.json says beyond the route schemas, for the clients generated from it: a stable,
// readable operationId per operation (generated functions are named after it, and do not change when
// a path does), the submission endpoint's optional bearer token and Idempotency-Key header, the
// servers, tags and licence.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { namedSchemas } from './openapi-components.ts';

/** Form, Submission, the error bodies…: components.schemas, and the `$ref`s the transform puts in their place. */
const named = namedSchemas();

/** Method and path → operationId. A route missing here gets one made from its method and path (test/openapi.test.ts lists them). */
export const OPERATION_IDS: Record<string, string> = {
  'POST /api/{segment}/f/{slug}': 'submitToForm',
  'GET /api/{segment}/f/{slug}': 'discoverForm',
  'GET /api/{segment}/f/{slug}/captcha': 'getCaptchaChallenge',
  'POST /f/{segment}/{slug}': 'submitHtmlForm',
  'GET /api/forms': 'listForms',
  'POST /api/forms': 'createForm',
  'GET /api/forms/{id}': 'getForm',
  'PUT /api/forms/{id}': 'updateForm',
  'DELETE /api/forms/{id}': 'deleteForm',
  'GET /api/forms/{form_id}/submissions/export': 'exportSubmissions',
  'GET /api/forms/{form_id}/submissions': 'listSubmissions',
  'GET /api/forms/{form_id}/submissions/{id}': 'getSubmission',
  'PATCH /api/forms/{form_id}/submissions/{id}': 'updateSubmission',
  'DELETE /api/forms/{form_id}/submissions/{id}': 'deleteSubmission',
  'GET /api/forms/{form_id}/submissions/{id}/files/{file_id}': 'downloadSubmissionFile',
  'GET /files/{file_id}': 'downloadFileByLink',
  'POST /api/forms/{form_id}/submissions/bulk': 'bulkSubmissions',
  'POST /api/forms/{form_id}/submissions/{id}/reply': 'sendReply',
  'POST /api/forms/{form_id}/submissions/{id}/reply/regenerate': 'regenerateReply',
  'GET /api/knowledge_bases': 'listKnowledgeBases',
  'POST /api/knowledge_bases': 'createKnowledgeBase',
  'GET /api/knowledge_bases/{id}': 'getKnowledgeBase',
  'PUT /api/knowledge_bases/{id}': 'updateKnowledgeBase',
  'DELETE /api/knowledge_bases/{id}': 'deleteKnowledgeBase',
  'GET /api/account': 'getAccount',
  'PATCH /api/account': 'updateAccount',
  'GET /api/forms/{form_id}/destinations': 'listDestinations',
  'POST /api/forms/{form_id}/destinations': 'createDestination',
  'GET /api/forms/{form_id}/destinations/{id}': 'getDestination',
  'PATCH /api/forms/{form_id}/destinations/{id}': 'updateDestination',
  'DELETE /api/forms/{form_id}/destinations/{id}': 'deleteDestination',
  'POST /api/forms/{form_id}/destinations/{id}/regenerate-secret': 'regenerateDestinationSecret',
  'POST /api/forms/{form_id}/destinations/{id}/test': 'testDestination',
  'GET /api/forms/{form_id}/destinations/{id}/deliveries': 'listDeliveries',
  'POST /api/forms/{form_id}/destinations/{id}/deliveries/{delivery_id}/retry': 'retryDelivery',
  'POST /api/data-subjects/search': 'searchDataSubject',
  'POST /api/data-subjects/export': 'exportDataSubject',
  'POST /api/data-subjects/erase': 'eraseDataSubject',
  'GET /api/audit': 'listAudit',
  'GET /api/members': 'listMembers',
  'POST /api/members': 'inviteMember',
  'PATCH /api/members/{id}': 'updateMember',
  'DELETE /api/members/{id}': 'removeMember',
  'DELETE /api/workspace': 'deleteWorkspace',
};

/** Fastify's path (`:id`) as the document writes it (`{id}`). */
const documentPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** A route not in the table: its method and the path's words, camelCased (`postApiFormsByFormIdFiles` style is what generators do without one). */
function madeUp(method: string, path: string): string {
  const words = path.split('/').filter((w) => w && w !== 'api').map((w) => w.replace(/^\{(.*)\}$/, 'by_$1')).join('_').split(/[^A-Za-z0-9]+/);
  return [method.toLowerCase(), ...words.filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

export function operationIdOf(method: string, url: string): string {
  const path = documentPath(url);
  return OPERATION_IDS[`${method} ${path}`] ?? madeUp(method, path);
}

const SUBMIT = 'POST /api/{segment}/f/{slug}';

/** @fastify/swagger's transform: each operation's id; the submission endpoint's token and Idempotency-Key. Documentation only: validation is the route's. */
export const transformOperation: NonNullable<FastifyDynamicSwaggerOptions['transform']> = ({ schema, url, route }) => {
  const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string;
  const documented: Record<string, unknown> = { ...(schema as object), operationId: (schema as { operationId?: string } | undefined)?.operationId ?? operationIdOf(method, url) };
  // An operation without a key is open to anyone by design (discovery, the CAPTCHA challenge, the HTML
  // form post): `security: []` says so, where no security at all reads as forgotten (Redocly's security-defined).
  if (documented.security === undefined) documented.security = [];
  if (`${method} ${documentPath(url)}` === SUBMIT) {
    // Public forms need nothing ({}), private ones the submission token.
    documented.security = [{}, { submissionToken: [] }];
    documented.headers = {
      type: 'object',
      properties: {
        'Idempotency-Key': {
          type: 'string', minLength: 1, maxLength: 256,
          description: 'Retries with the same key and data return the first submission with 200 for 24 hours; the same key with other data gets 422 idempotency_key_reused',
        },
      },
    };
  }
  return { schema: named.route(documented) as typeof schema, url };
};

export function openApiDocument(publicUrl: string | null) {
  return {
    // 3.1: schemas are JSON Schema 2020-12 as the routes validate with, `type: 'null'` and all, not rewritten to 3.0's `nullable`.
    openapi: '3.1.0',
    info: {
      title: 'Intake', version: '0.1.0', description: 'Self-hosted form backend for people and AI agents.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // The configured public URL; without one, this server itself.
    servers: [{ url: publicUrl ?? '/', description: publicUrl ? 'This Intake' : 'This Intake (INTAKE_PUBLIC_URL unset: the host the document came from)' }],
    tags: [
      { name: 'Submission endpoint', description: 'Per-form endpoints for submitters: submit, discover the schema' },
      { name: 'Forms', description: 'Forms and their settings' },
      { name: 'Submissions', description: "A form's submissions: list, read, triage, reply, export" },
      { name: 'Files', description: 'Files uploaded with submissions: downloads and signed links' },
      { name: 'Destinations', description: 'Webhooks, chat and email notifications, and their delivery logs' },
      { name: 'Knowledge bases', description: 'What smart replies are drafted from' },
      { name: 'Data subjects', description: "Access and erasure requests across the owner's forms" },
      { name: 'Account', description: 'Plan, credits, settings and the audit log' },
      { name: 'Members', description: "The workspace's members, their roles and invitations (docs/teams.md)" },
    ],
    components: {
      schemas: named.components,
      securitySchemes: {
        apiKey: { type: 'http' as const, scheme: 'bearer', description: 'An API key from `intake keys create`' },
        submissionToken: { type: 'http' as const, scheme: 'bearer', description: "A private form's submission token, returned once when the form was created" },
      },
    },
  };
}
