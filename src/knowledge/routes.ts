// /api/knowledge_bases: thin handlers over the knowledge-base service. Errors use the envelope
// { error: { code, message, details? } }; a body that fails its schema is a 422 naming the fields.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { errorHandlerFor } from '../http/error-replies.ts';
import { documentErrors } from '../http/error-docs.ts';
import { toFieldErrors } from '../http/route-validation.ts';
import {
  CreateKnowledgeBaseBody, DeletedKnowledgeBaseOutput, KnowledgeBaseOutput, KnowledgeBaseParams, KnowledgeBaseSummaryOutput,
  KnowledgeErrors, UpdateKnowledgeBaseBody,
} from './schemas.ts';
import { presentKnowledgeBase as present, presentKnowledgeSummary as presentSummary } from './present.ts';
import { knowledgeErrors, type KnowledgeService } from './service.ts';

const security = [{ apiKey: [] }];
const tags = ['Knowledge bases'];

/** Room for the largest content, escaped in JSON, and the other members. */
export function knowledgeBodyLimit(config: Config): number {
  return Math.max(config.maxBodyBytes, 2 * config.knowledge.maxBytes + 16 * 1024);
}

export const knowledgeRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService; knowledge: KnowledgeService }> = async (
  app,
  { config, accounts, knowledge },
) => {
  const bodyLimit = knowledgeBodyLimit(config);
  const handle = errorHandlerFor('knowledge', bodyLimit);
  documentErrors(app, 'knowledge');
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const bodyCheck = error.validation && error.validationContext === 'body' && !error.validation.some((v) => v.instancePath === '' && v.keyword === 'type');
    if (bodyCheck) return handle(knowledgeErrors.invalid(toFieldErrors(error.validation as Parameters<typeof toFieldErrors>[0])), request, reply);
    return handle(error, request, reply);
  });
  requireApiKey(app, accounts);

  app.get('/api/knowledge_bases', {
    schema: { tags, security, summary: 'List knowledge bases (without their content)', response: { 200: Type.Object({ knowledge_bases: Type.Array(KnowledgeBaseSummaryOutput) }), 401: KnowledgeErrors[401] } },
  }, async (request) => ({ knowledge_bases: (await knowledge.list(ownerOf(request).account.id)).map(presentSummary) }));

  // A rule the body's JSON Schema cannot say, so the document says it in words.
  const NO_TEXT = 'Content with no text to answer from (only headings, markup or punctuation) is refused: 422 validation_error with details.content.';

  app.post('/api/knowledge_bases', {
    bodyLimit,
    schema: { tags, security, summary: 'Create a knowledge base', description: NO_TEXT, body: CreateKnowledgeBaseBody, response: { 201: KnowledgeBaseOutput, ...KnowledgeErrors } },
  }, async (request, reply) => reply.code(201).send(present(await knowledge.create(ownerOf(request).account.id, request.body))));

  app.get('/api/knowledge_bases/:id', {
    schema: { tags, security, summary: 'Get a knowledge base', params: KnowledgeBaseParams, response: { 200: KnowledgeBaseOutput, ...KnowledgeErrors } },
  }, async (request) => present(await knowledge.get(ownerOf(request).account.id, request.params.id)));

  app.put('/api/knowledge_bases/:id', {
    bodyLimit,
    schema: {
      tags, security, summary: 'Update a knowledge base (all fields optional)', description: `New content is split into passages again; replies use it at once. ${NO_TEXT}`,
      params: KnowledgeBaseParams, body: UpdateKnowledgeBaseBody, response: { 200: KnowledgeBaseOutput, ...KnowledgeErrors },
    },
  }, async (request) => present(await knowledge.update(ownerOf(request).account.id, request.params.id, request.body)));

  app.delete('/api/knowledge_bases/:id', {
    schema: {
      tags, security, summary: 'Delete a knowledge base', description: 'Smart replies are turned off, in the same transaction, on every form linked to it; their slugs are listed in smart_reply_disabled_on.',
      params: KnowledgeBaseParams, response: { 200: DeletedKnowledgeBaseOutput, ...KnowledgeErrors },
    },
  }, async (request) => {
    const { knowledgeBase, smartReplyDisabledOn } = await knowledge.delete(ownerOf(request).account.id, request.params.id);
    return { ...present(knowledgeBase), smart_reply_disabled_on: smartReplyDisabledOn };
  });
};
