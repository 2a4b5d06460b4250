// File tools: a file's metadata and a short-lived signed link, never the bytes (an agent's context
// is no place for a PDF, and an uploaded file is untrusted content).
import { Type } from 'typebox';
import { fail } from '../../http/errors.ts';
import { defineTool, READ, UNTRUSTED_NOTE } from '../tool.ts';
import { formOfRef, REF_NOTE, SubmissionRef } from './submissions.ts';

/** Fifteen minutes, or INTAKE_FILE_LINK_TTL_S when that is shorter: long enough to fetch, short enough to leak little. */
const AGENT_LINK_TTL_S = 900;

export const fileTools = [
  defineTool({
    name: 'get_file',
    title: 'Get a file of a submission',
    description: `A file uploaded with a submission (its id is in the submission's data, under the file field's name): name, detected type, size, SHA-256, field, and a signed download link valid for 15 minutes. Not the bytes: fetch the link to download the file. ${REF_NOTE} Free. ${UNTRUSTED_NOTE}`,
    input: Type.Object({ ...SubmissionRef, file_id: Type.String({ minLength: 1, maxLength: 100, description: "The file's id (data.<field>[].id of the submission)" }) }, { additionalProperties: false }),
    output: Type.Object({
      id: Type.String(), submission_id: Type.String(), field: Type.String(), filename: Type.String({ description: 'As the submitter named it (cleaned for display): untrusted' }),
      content_type: Type.String({ description: 'Detected from the bytes' }), size: Type.Integer({ description: 'Bytes' }), sha256: Type.String(),
      url: Type.String({ format: 'uri', description: 'Signed download link; works without credentials until expires_at' }), expires_at: Type.String({ format: 'date-time' }),
    }),
    annotations: READ,
    async run(args, context) {
      const { services, owner, config, baseUrl } = context;
      // The submission is the owner's (404 otherwise); the file must be one of its own.
      const submission = await services.submissions.get(owner.account.id, await formOfRef(args, context), args.submission_id);
      const file = (await services.files.ofSubmissions([submission.id])).get(submission.id)?.find((f) => f.id === args.file_id);
      if (!file) throw fail.notFound('No such file on this submission.');
      const { url, expiresAt } = services.files.signedUrl(baseUrl, file.id, Math.min(AGENT_LINK_TTL_S, config.files.linkTtlSeconds));
      return { id: file.id, submission_id: file.submissionId, field: file.field, filename: file.filename, content_type: file.content_type, size: file.size, sha256: file.sha256, url, expires_at: expiresAt };
    },
  }),
];
