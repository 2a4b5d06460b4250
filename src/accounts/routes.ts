// /api/account: the owner's plan, submission allowance and AI credits.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { AccountOutput, LanguageCode, presentAccount, ReplyTo } from './present.ts';
import type { AccountService } from './service.ts';
import type { Account } from './store.ts';

export const accountRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService }> = async (app, { config, accounts }) => {
  useErrorFamily(app, 'account', config.maxBodyBytes);
  requireApiKey(app, accounts);

  const present = (account: Account) => presentAccount(accounts, config, account);

  app.get('/api/account', {
    schema: { tags: ['Account'], security: [{ apiKey: [] }], summary: 'Plan, language, allowance and AI credits', response: { 200: AccountOutput } },
  }, async (request) => present(ownerOf(request).account));

  app.patch('/api/account', {
    schema: {
      tags: ['Account'], security: [{ apiKey: [] }], summary: "Change the account's settings",
      body: Type.Object({ language: Type.Optional(LanguageCode), reply_to_email: Type.Optional(ReplyTo) }, { additionalProperties: false }),
      response: { 200: AccountOutput },
    },
  }, async (request) => {
    const { account } = ownerOf(request);
    const { language, reply_to_email: replyTo } = request.body;
    if (language !== undefined) await accounts.setAccountLanguage(account.id, language);
    if (replyTo !== undefined) await accounts.setReplyTo(account.id, replyTo);
    return present({ ...account, language: language ?? account.language, replyToEmail: replyTo === undefined ? account.replyToEmail : replyTo });
  });
};
