// /api/forms: thin handlers over the form service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { requireApiKey, ownerOf } from '../http/auth.ts';
import { baseUrlOf } from '../http/base-url.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { presentForm, presentFormSummary } from './present.ts';
import {
  CreateFormBody, CreatedFormOutput, FormErrors, FormIdParams, FormOutput, FormSummary, UpdateFormBody, UpdatedFormOutput,
} from './schemas.ts';
import type { FormService } from './service.ts';

export interface FormRoutesDeps {
  config: Config;
  accounts: AccountService;
  forms: FormService;
}

const security = [{ apiKey: [] }];
const tags = ['Forms'];

export const formRoutes: FastifyPluginAsyncTypebox<FormRoutesDeps> = async (app, { config, accounts, forms }) => {
  useErrorFamily(app, 'forms', config.maxBodyBytes);
  requireApiKey(app, accounts);
  const base = (request: Parameters<typeof baseUrlOf>[0]) => baseUrlOf(request, config.publicUrl);

  app.get('/api/forms', {
    schema: { tags, security, summary: 'List forms', response: { 200: Type.Object({ forms: Type.Array(FormSummary) }), 401: FormErrors[401] } },
  }, async (request) => {
    const list = await forms.list(ownerOf(request).account.id);
    return { forms: list.map((form) => presentFormSummary(form, base(request))) };
  });

  app.post('/api/forms', {
    schema: {
      tags, security, summary: 'Create a form', body: CreateFormBody, response: { 201: CreatedFormOutput, ...FormErrors },
      description: 'Beyond the body schema, 422 also when: the slug is taken among your forms; knowledge_base_id is not one of your knowledge bases; '
        + 'reply_email_field does not name an email field of fields_schema (or its alias smart_reply_email_field differs from it); fields_schema breaks a rule its description gives; '
        + 'webhook_url is plain HTTP to a host the operator does not allow, or points to a private address.',
    },
  }, async (request, reply) => {
    const { form, submissionToken } = await forms.create(ownerOf(request).account.id, request.body);
    return reply.code(201).send({ ...presentForm(form, base(request)), submission_token: submissionToken });
  });

  app.get('/api/forms/:id', {
    schema: { tags, security, summary: 'Get a form', params: FormIdParams, response: { 200: FormOutput, ...FormErrors } },
  }, async (request) => presentForm(await forms.get(ownerOf(request).account.id, request.params.id), base(request)));

  app.put('/api/forms/:id', {
    schema: {
      tags, security, summary: 'Update a form (all fields optional)',
      description: 'A change to fields_schema or slug mints a new versioned endpoint; old endpoints keep accepting submissions for their version. '
        + 'What the body leaves out stays as stored, and the rules apply to the form as it will be: 422 when webhook_enabled is then true without '
        + 'a webhook_url and webhook_secret, or smart_reply_enabled without a knowledge_base_id, and when reply_email_field does not name an email '
        + 'field of its schema (or smart_reply_email_field, its alias, differs from it); otherwise as on create.',
      params: FormIdParams, body: UpdateFormBody, response: { 200: UpdatedFormOutput, ...FormErrors },
    },
  }, async (request) => {
    const { form, submissionToken } = await forms.update(ownerOf(request).account.id, request.params.id, request.body);
    return { ...presentForm(form, base(request)), ...(submissionToken && { submission_token: submissionToken }) };
  });

  app.delete('/api/forms/:id', {
    schema: { tags, security, summary: 'Delete a form and its submissions', params: FormIdParams, response: { 200: FormOutput, ...FormErrors } },
  }, async (request) => presentForm(await forms.delete(ownerOf(request).account.id, request.params.id), base(request)));
};
