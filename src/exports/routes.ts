// GET /api/forms/{form_id}/submissions/export: a form's submissions as CSV, NDJSON or JSON, streamed.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AccountService } from '../accounts/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { FormParams, ManagementErrors } from '../submissions/schemas.ts';
import type { ExportService } from './service.ts';

/** A date or a time as the export service reads them (checkExportQuery), so that the document says what it refuses. */
const ISO_TIME = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])([T ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)?)?$';

export const ExportQuerySchema = Type.Object(
  {
    format: Type.Enum(['csv', 'ndjson', 'json'], { default: 'csv', description: 'csv (RFC 4180, for spreadsheets), ndjson (one JSON object a line) or json (one array)' }),
    filter: Type.Enum(['inbox', 'spam', 'all'], { default: 'inbox' }),
    from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME, description: 'ISO 8601: only submissions created at or after this time' })),
    to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME, description: 'ISO 8601: only submissions created at or before this time, not before from' })),
    text: Type.Optional(Type.String({ maxLength: 200, description: 'Only submissions one of whose values contains this text (case-insensitive; field names are not searched), as the inbox search' })),
    bom: Type.Boolean({ default: false, description: 'CSV: start with a UTF-8 byte order mark, so Excel shows non-Latin text right' }),
  },
  { additionalProperties: true },
);

const fileBody = (description: string) => ({ schema: { type: 'string', description } });

export const EXPORT_OPERATION = 'GET /api/forms/:form_id/submissions/export';

/** Sent as a header value: the filename is the form's slug (a-z, 0-9, -) and a date, nothing to escape. */
export const attachment = (filename: string) => `attachment; filename="${filename}"`;

export const exportRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService; exports: ExportService; audit: AuditService }> = async (
  app,
  { config, accounts, exports, audit },
) => {
  useErrorFamily(app, 'submissions', config.maxBodyBytes);
  requireApiKey(app, accounts);

  app.get('/api/forms/:form_id/submissions/export', {
    schema: {
      tags: ['Submissions'], security: [{ apiKey: [] }], summary: 'Export submissions as CSV, NDJSON or JSON',
      description: 'Streams every matching submission stored when the export starts, oldest first: id, created_at, every field of every schema version '
        + '(current first, then removed fields), spam_flag, spam_reason, original_language, translated fields (translated.<field>) when the form has translations, reply_status. '
        + 'CSV values holding a quote, comma, semicolon, CR or LF are quoted; wherever a spreadsheet could start a formula (a value\'s start, each line within it, after each semicolon) an apostrophe goes first; nested values are JSON text. The download is named after the form\'s slug and the date; the export is recorded in the audit log.',
      params: FormParams, querystring: ExportQuerySchema,
      produces: ['text/csv', 'application/x-ndjson', 'application/json'],
      response: {
        200: { description: 'The export file', content: { 'text/csv': fileBody('CSV'), 'application/x-ndjson': fileBody('NDJSON'), 'application/json': { schema: { type: 'array', items: { type: 'object' }, description: 'A JSON array, one object a submission' } } } },
        ...ManagementErrors,
      },
    },
  }, async (request, reply) => {
    const owner = ownerOf(request);
    const { format, filter, from, to, text, bom } = request.query;
    const opened = await exports.open(owner.account.id, request.params.form_id, { filter, from, to, text }, format, { bom });
    await audit.record({ owner, surface: 'api', operation: EXPORT_OPERATION, targetId: opened.form.id, outcome: 'succeeded', detail: `${format}, ${filter}` });
    return reply
      .header('content-type', opened.contentType)
      .header('content-disposition', attachment(opened.filename))
      .header('cache-control', 'no-store')
      .send(opened.body);
  });
};
