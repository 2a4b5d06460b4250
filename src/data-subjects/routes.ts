// POST /api/data-subjects/search|export|erase: a person's access and erasure requests, by email.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { SubmissionOutput } from '../submissions/schemas.ts';
import { erasureDetail, type DataSubjectService } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Counts the audit entry of this request records (see audit/routes.ts). */
    auditDetail?: string;
  }
}

/**
 * An address as isEmailAddress (forms/email-address.ts) takes it, with the surrounding spaces this
 * route forgives: dot-atoms, an @, two or more domain labels of at most 63 characters. Its limits of
 * 64 characters before the @ and 254 in all are the two patterns of `allOf` (no look-ahead needed).
 */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL = Type.String({
  minLength: 3, maxLength: 320, pattern: `^\\s*${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+\\s*$`,
  allOf: [{ pattern: '^\\s*[^@]{1,64}@', 'x-message': 'must be an email address' }, { pattern: '^\\s*\\S{3,254}\\s*$', 'x-message': 'must be an email address' }],
  'x-message': 'must be an email address',
  description: "The person's email address (case and surrounding spaces do not matter)",
});
const Body = Type.Object({ email: EMAIL }, { additionalProperties: false });
const complete = Type.Boolean({ description: 'False when more submissions than a search reads were still waiting for the pipeline: ask again in a moment' });
const Match = Type.Object({ form_id: Type.String(), form_name: Type.String(), id: Type.String(), created_at: Type.String({ format: 'date-time' }) });
// As submissions/schemas.ts writes a nullable value: both OpenAPI 3.0 (nullable) and JSON Schema (the type list) read it.
const nullable = (schema: { type: string } & Record<string, unknown>) => Type.Unsafe<string | null>({ ...schema, nullable: true, type: [schema.type, 'null'] });
const open = (description: string) => Type.Object({}, { additionalProperties: true, description });

const errorBody = Type.Object({ error: Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true }) });
const Errors = { 400: errorBody, 401: errorBody, 403: errorBody };

export const dataSubjectRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService; subjects: DataSubjectService }> = async (
  app,
  { config, accounts, subjects },
) => {
  useErrorFamily(app, 'account', config.maxBodyBytes);
  requireApiKey(app, accounts);
  const tags = ['Data subjects'];
  const security = [{ apiKey: [] }];

  app.post('/api/data-subjects/search', {
    schema: {
      tags, security, summary: "Find a person's submissions across your forms",
      description: 'By email address: values of email fields and any value that is exactly an address, normalised. Found through an index, not by reading every submission.',
      body: Body, response: { 200: Type.Object({ email: Type.String(), submissions: Type.Array(Match), complete }), ...Errors },
    },
  }, async (request) => subjects.search(ownerOf(request).account.id, request.body.email));

  app.post('/api/data-subjects/export', {
    schema: {
      tags, security, summary: 'Everything held about a person, as one JSON document',
      description: 'Every matching submission in full, its files as signed download links, and what Intake derived from it: analyses (verdicts, translations), the deliveries sent about it, with their attempts, and which model summaries read it.',
      body: Body,
      response: {
        200: Type.Object({
          email: Type.String(), generated_at: Type.String({ format: 'date-time' }), complete,
          submissions: Type.Array(Type.Object({ form_id: Type.String(), form_name: Type.String(), submission: SubmissionOutput })),
          derived: Type.Object({
            analyses: Type.Array(open('An analysis')), deliveries: Type.Array(open('A delivery with its attempts')),
            summaries: Type.Array(Type.Object({ id: Type.String(), form_id: Type.String(), created_at: Type.String({ format: 'date-time' }) }), {
              description: 'Model summaries that read these submissions, without their text (it describes other people too); erasure deletes them',
            }),
          }),
          files: Type.Array(Type.Object({
            submission_id: Type.String(), form_id: Type.String(), field: Type.String(), id: Type.String(), filename: Type.String(),
            content_type: Type.String(), size: Type.Integer(), sha256: Type.String(),
            url: nullable({ type: 'string', format: 'uri', description: 'A signed download link; null for a quarantined file' }),
            expires_at: nullable({ type: 'string', format: 'date-time' }),
            quarantine: nullable({ type: 'string', description: 'The signature the malware scanner (INTAKE_CLAMAV_URL) found: the file is quarantined and has no link; null otherwise' }),
          }), { description: "The person's uploaded files: a signed download link each (INTAKE_FILE_LINK_TTL_S), not the bytes; a quarantined file is named with its signature and has no link" }),
        }),
        ...Errors,
      },
    },
  }, async (request) => subjects.export(ownerOf(request).account.id, request.body.email));

  app.post('/api/data-subjects/erase', {
    schema: {
      tags, security, summary: 'Delete everything held about a person',
      description: 'Deletes the matching submissions with their translations, reply drafts and sent replies, deliveries (payloads and logged bodies), analyses, fingerprints and every model summary made from any of them; '
        + 'charge records keep their amounts without the submission ids. The audit log keeps only how many submissions were erased, not whose. Answers the counts per form.',
      body: Body,
      response: { 200: Type.Object({ erased: Type.Integer(), forms: Type.Array(Type.Object({ form_id: Type.String(), erased: Type.Integer() })), complete }), ...Errors },
    },
  }, async (request) => {
    const erasure = await subjects.erase(ownerOf(request).account.id, request.body.email);
    request.auditDetail = erasureDetail(erasure);
    return erasure;
  });
};
