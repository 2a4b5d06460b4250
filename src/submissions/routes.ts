// /api/forms/{form_id}/submissions: the owner's view of what arrived.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { errorHandlerFor } from '../http/error-replies.ts';
import { FormParams, ListQuery, SpamCorrectionBody, ManagementErrors, SubmissionOutput, SubmissionPage, SubmissionParams } from './schemas.ts';
import type { SubmissionService } from './service.ts';

const security = [{ apiKey: [] }];
const tags = ['Submissions'];

export const submissionRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService; submissions: SubmissionService }> = async (
  app,
  { config, accounts, submissions },
) => {
  app.setErrorHandler(errorHandlerFor('submissions', config.maxBodyBytes));
  requireApiKey(app, accounts);

  app.get('/api/forms/:form_id/submissions', {
    schema: {
      tags, security, summary: 'List submissions, newest first', params: FormParams, querystring: ListQuery,
      response: { 200: SubmissionPage, ...ManagementErrors },
    },
  }, async (request) =>
    submissions.list(ownerOf(request).account.id, request.params.form_id, {
      filter: request.query.filter,
      page: request.query.page,
      pageSize: request.query.page_size,
    }));

  app.get('/api/forms/:form_id/submissions/:id', {
    schema: { tags, security, summary: 'Get a submission', params: SubmissionParams, response: { 200: SubmissionOutput, ...ManagementErrors } },
  }, async (request) => submissions.get(ownerOf(request).account.id, request.params.form_id, request.params.id));

  app.patch('/api/forms/:form_id/submissions/:id', {
    schema: {
      tags, security, summary: "Correct a submission's spam verdict",
      description: 'Marks the submission spam or not spam; the correction and who made it are recorded. 422 while it is still being processed.',
      params: SubmissionParams, body: SpamCorrectionBody, response: { 200: SubmissionOutput, ...ManagementErrors },
    },
  }, async (request) => {
    const owner = ownerOf(request);
    return submissions.correctSpam({ accountId: owner.account.id, keyId: owner.keyId }, request.params.form_id, request.params.id, request.body.spam_flag);
  });

  app.delete('/api/forms/:form_id/submissions/:id', {
    schema: {
      tags, security, summary: 'Delete a submission', description: 'Answers 422 while the submission is being processed.',
      params: SubmissionParams, response: { 200: SubmissionOutput, ...ManagementErrors },
    },
  }, async (request) => submissions.delete(ownerOf(request).account.id, request.params.form_id, request.params.id));
};
