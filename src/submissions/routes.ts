// /api/forms/{form_id}/submissions: the owner's view of what arrived.
import type { FastifyPluginAsyncTypebox, Static } from '@fastify/type-provider-typebox';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { fail } from '../http/errors.ts';
import type { SpamFilter } from './store.ts';
import type { ReplyService } from '../replies/service.ts';
import { BulkBody, BulkOutput, FileParams, FormParams, ListQuery, SubmissionPatchBody, ManagementErrors, PublicErrors, SubmissionOutput, SubmissionPage, SubmissionParams } from './schemas.ts';
import type { SubmissionService } from './service.ts';
import type { TriageService } from './triage.ts';
import { Type } from 'typebox';
import type { FileService } from '../files/service.ts';
import { FILE_BODY, fileEntry, sendDownload } from '../files/routes.ts';
import { baseUrlOf } from '../http/base-url.ts';
import type { Selection } from './triage-store.ts';

const security = [{ apiKey: [] }];
const tags = ['Submissions'];

type BulkWhere = Extract<Static<typeof BulkBody>, { where: unknown }>['where'];

/** A bulk body's where as the triage's selection (its members named as the code names them). */
function selectionOf(where: BulkWhere): Selection {
  return {
    filter: where.filter,
    ...(where.done !== undefined && { done: where.done }),
    ...(where.text && { text: where.text }),
    ...(where.processing_status && { processingStatus: where.processing_status }),
  };
}

/**
 * The spec's filter and the spam shorthand: the shorthand alone picks the filter (spam or inbox);
 * beside a filter given too, both hold (filter=all&spam=true is the spam; filter=inbox&spam=true is nothing).
 */
function splitOf(filter: SpamFilter, spam: boolean | undefined, filterGiven: boolean): { filter: SpamFilter; spamFlag?: boolean } {
  if (spam === undefined) return { filter };
  const shorthand: SpamFilter = spam ? 'spam' : 'inbox';
  if (!filterGiven || filter === 'all' || filter === shorthand) return { filter: shorthand };
  return { filter, spamFlag: spam };
}

const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * since/until as stored timestamps compare: a date is its midnight UTC, or (until) the next midnight,
 * so the day is included. A leap second (23:59:60, which the format allows and Date cannot hold) is
 * the next second; times are kept within years 1 to 9999, which both engines compare as timestamps.
 */
function instantOf(value: string, edge: 'start' | 'end'): string {
  const leap = /:60(?=[.zZ+-]|$)/.test(value);
  let at = Date.parse(value.length > 10 ? value.replace(/:60(?=[.zZ+-]|$)/, ':59') : `${value}T00:00:00.000Z`);
  if (leap) at += 1_000;
  if (value.length <= 10 && edge === 'end') at += 86_400_000;
  return new Date(Math.min(Math.max(at, EARLIEST), LATEST)).toISOString();
}

export const submissionRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService; submissions: SubmissionService; triage: TriageService; replies: ReplyService; files: FileService }> = async (
  app,
  { config, accounts, submissions, triage, replies, files },
) => {
  useErrorFamily(app, 'submissions', config.maxBodyBytes);
  requireApiKey(app, accounts);

  app.get('/api/forms/:form_id/submissions', {
    schema: {
      tags, security, summary: 'List submissions, newest first',
      description: 'filter (or the spam shorthand) and done split the list; search, processing_status, reply_status, since and until narrow it '
        + '(a narrowed list is counted row by row); sort_order=asc lists oldest first. An unknown parameter answers 400 naming it.',
      params: FormParams, querystring: ListQuery,
      response: { 200: SubmissionPage, ...ManagementErrors },
    },
  }, async (request) => {
    const { query } = request;
    return submissions.list(ownerOf(request).account.id, request.params.form_id, {
      ...splitOf(query.filter, query.spam, new URL(request.url, 'http://intake.invalid').searchParams.has('filter')),
      ...(query.done !== undefined && { done: query.done }),
      ...(query.search !== undefined && { text: query.search }),
      ...(query.processing_status && { processingStatus: query.processing_status }),
      ...(query.reply_status && { replyStatus: query.reply_status }),
      ...(query.since !== undefined && { since: instantOf(query.since, 'start') }),
      ...(query.until !== undefined && { until: instantOf(query.until, 'end') }),
      order: query.sort_order,
      page: query.page,
      pageSize: query.page_size,
    });
  });

  app.get('/api/forms/:form_id/submissions/:id', {
    schema: { tags, security, summary: 'Get a submission', params: SubmissionParams, response: { 200: SubmissionOutput, ...ManagementErrors } },
  }, async (request) => {
    const submission = await submissions.get(ownerOf(request).account.id, request.params.form_id, request.params.id);
    const stored = (await files.ofSubmissions([submission.id])).get(submission.id) ?? [];
    if (stored.length === 0) return submission;
    const base = `${baseUrlOf(request, config.publicUrl)}/api/forms/${encodeURIComponent(request.params.form_id)}/submissions/${submission.id}/files`;
    // A quarantined file is listed, with its signature, but offered no download.
    return { ...submission, files: stored.map((file) => ({ ...fileEntry(file), ...(file.quarantine === null && { download_url: `${base}/${file.id}` }) })) };
  });

  app.get('/api/forms/:form_id/submissions/:id/files/:file_id', {
    schema: {
      tags, security, summary: 'Download an uploaded file',
      description: 'The bytes, always as an attachment (Content-Disposition: attachment, X-Content-Type-Options: nosniff, a sandboxing CSP): '
        + 'an uploaded page or image never runs as Intake. A read-scoped key is enough; another owner\'s file is 404; a quarantined one (malware found) is 403 file_quarantined.',
      params: FileParams,
      response: { 200: FILE_BODY, ...ManagementErrors, 403: PublicErrors[403] },
    },
  }, async (request, reply) => {
    const { form_id: formId, id, file_id: fileId } = request.params;
    return sendDownload(reply, await files.openOwned(ownerOf(request).account.id, formId, id, fileId));
  });

  app.patch('/api/forms/:form_id/submissions/:id', {
    schema: {
      tags, security, summary: "Correct a submission's spam verdict, mark it read or done, or edit its reply",
      description: 'spam_flag marks the submission spam or not spam; the correction and who made it are recorded (422 while it is still being processed). '
        + 'read marks it read or unread, done marks it done (archived) or not. '
        + 'reply_subject and reply_content edit the smart reply draft (422 once it was sent).',
      params: SubmissionParams, body: SubmissionPatchBody, response: { 200: SubmissionOutput, ...ManagementErrors },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const { form_id: formId, id } = request.params;
    const { spam_flag: spam, read, done, reply_subject, reply_content } = request.body;
    const member = owner.memberEmail ?? null;
    let submission = spam === undefined ? null : await submissions.correctSpam({ accountId: owner.account.id, keyId: owner.keyId, member }, formId, id, spam);
    if (read !== undefined) submission = await triage.markRead(owner.account.id, formId, id, read, member);
    if (done !== undefined) submission = await triage.markDone(owner.account.id, formId, id, done, member);
    if (reply_subject !== undefined || reply_content !== undefined) submission = await replies.edit(owner.account.id, formId, id, { reply_subject, reply_content }, member);
    return submission ?? submissions.get(owner.account.id, formId, id);
  });

  app.post('/api/forms/:form_id/submissions/bulk', {
    schema: {
      tags, security, summary: 'Act on many submissions: read, unread, done, not_done, spam, not_spam or delete',
      description: 'On 1 to 500 ids, or on every submission a where selects (filter, done, text, processing_status) when the request arrives, up to 100,000 a request '
        + '(more: true says to send it again). Each submission that cannot be changed (not found; still being processed for spam marks and delete) '
        + 'is counted in failed_count and the first 100 listed; the rest go on. Spam marks are recorded and teach the spam checks as single corrections do.',
      params: FormParams, body: BulkBody, response: { 200: BulkOutput, ...ManagementErrors },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    const body = request.body;
    const { action } = body;
    const ids = 'ids' in body ? body.ids : undefined;
    const target = 'where' in body ? { where: selectionOf(body.where) } : { ids: body.ids };
    const result = await triage.bulk({ accountId: owner.account.id, keyId: owner.keyId, member: owner.memberEmail ?? null }, request.params.form_id, action, target);
    request.auditDetail = `${action}: ${result.changed} changed of ${result.matched}${ids ? '' : ' matching'}`;
    return result;
  });

  app.post('/api/forms/:form_id/submissions/:id/reply', {
    schema: {
      tags, security, summary: 'Email the smart reply to the submitter',
      description: "Sends the draft once, to the form's reply_email_field (else its first email field). 422 when it was already sent, has no draft or no address; 502 when the mail server refused it.",
      params: SubmissionParams, response: { 200: SubmissionOutput, ...ManagementErrors, 502: ManagementErrors[422] },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    return replies.send(owner.account.id, request.params.form_id, request.params.id, owner.memberEmail ?? null);
  });

  app.post('/api/forms/:form_id/submissions/:id/reply/regenerate', {
    schema: {
      tags, security, summary: 'Make a new smart reply draft',
      description: "Drafts the reply again from the form's knowledge base as it is now; 422 once sent, for spam, or when the knowledge base has no answer.",
      params: SubmissionParams, response: { 200: SubmissionOutput, ...ManagementErrors, 502: ManagementErrors[422] },
    },
  }, async (request) => replies.regenerate(ownerOf(request).account.id, request.params.form_id, request.params.id));

  app.delete('/api/forms/:form_id/submissions/:id', {
    schema: {
      tags, security, summary: 'Delete a submission', description: 'Answers 422 while the submission is being processed.',
      params: SubmissionParams, response: { 200: SubmissionOutput, ...ManagementErrors },
    },
  }, async (request) => submissions.delete(ownerOf(request).account.id, request.params.form_id, request.params.id));
};
