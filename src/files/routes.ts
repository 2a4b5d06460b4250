// GET /files/{file_id}?expires=…&sig=…: the signed links that webhooks, chat messages, emails and
// exports carry. No credentials: the signature is the permission, for that file until the expiry.
// Every download, here and on the management route, is an attachment that cannot run as Intake.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { PublicErrors } from '../submissions/schemas.ts';
import { attachmentDisposition, DOWNLOAD_HEADERS } from './links.ts';
import type { Download, FileService } from './service.ts';
import type { FileRecord } from './store.ts';

/** The bytes, under the type detected at upload; the errors stay JSON. */
export const FILE_BODY = { description: 'The file, as an attachment, under the type detected from its bytes', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };

export function sendDownload(reply: FastifyReply, { record, body }: Download): FastifyReply {
  return reply
    .headers(DOWNLOAD_HEADERS)
    .header('content-type', record.content_type)
    .header('content-length', String(record.size))
    .header('content-disposition', attachmentDisposition(record.filename))
    .send(body);
}

export const fileEntry = (file: FileRecord) =>
  ({ id: file.id, field: file.field, filename: file.filename, content_type: file.content_type, size: file.size, sha256: file.sha256, quarantine: file.quarantine });

export const fileLinkRoutes: FastifyPluginAsyncTypebox<{ config: Config; files: FileService }> = async (app, { config, files }) => {
  useErrorFamily(app, 'public', config.maxBodyBytes);
  app.get('/files/:file_id', {
    schema: {
      tags: ['Files'],
      summary: 'Download a file through a signed link',
      description: 'The links in webhooks, chat messages, emails and exports. 403 when the link was altered or has expired (or file_quarantined when the malware scanner found something in the file), 404 when the file was deleted.',
      params: Type.Object({ file_id: Type.String() }),
      querystring: Type.Object({ expires: Type.String({ maxLength: 16 }), sig: Type.String({ maxLength: 64 }) }),
      response: { 200: FILE_BODY, 400: PublicErrors[400], 403: PublicErrors[403], 404: PublicErrors[404] },
    },
  }, async (request, reply) => sendDownload(reply, await files.openSigned(request.params.file_id, request.query.expires, request.query.sig)));
};
