// /api/account: the owner's plan, submission allowance and AI credits.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import type { AccountService } from './service.ts';
import type { Account } from './store.ts';

const LanguageCode = Type.String({
  pattern: '^[a-z]{2}$',
  'x-message': 'must be a two-letter ISO 639-1 code such as en or de',
  description: 'ISO 639-1 code: submissions of forms with localisation on are translated into it',
});

const ReplyTo = Type.Unsafe<string | null>({
  type: ['string', 'null'], format: 'email', maxLength: 254,
  description: "Reply-To of smart replies emailed to submitters; null: the account's email",
});

const AccountOutput = Type.Object({
  email: Type.String(),
  reply_to_email: ReplyTo,
  plan: Type.Enum(['free', 'pro']),
  language: LanguageCode,
  submissions: Type.Object({
    total: Type.Integer({ description: 'Submissions received over the life of the account' }),
    limit: Type.Unsafe<number | null>({ type: ['integer', 'null'], description: 'Lifetime cap of the free plan; null on pro' }),
  }),
  credits: Type.Object({
    period: Type.String({ description: '`lifetime` (free) or YYYY-MM (pro, UTC)' }),
    allowance: Type.Integer(),
    used: Type.Integer(),
    remaining: Type.Integer(),
    metered: Type.Boolean(),
    metered_usage: Type.Integer(),
  }),
});

export const accountRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService }> = async (app, { config, accounts }) => {
  useErrorFamily(app, 'account', config.maxBodyBytes);
  requireApiKey(app, accounts);

  async function present(account: Account) {
    const credits = await accounts.credits(account);
    return {
      email: account.email,
      reply_to_email: account.replyToEmail ?? account.email,
      plan: account.plan,
      language: account.language,
      submissions: { total: account.submissionsTotal, limit: account.plan === 'pro' ? null : config.freeSubmissionLimit },
      credits: {
        period: credits.period,
        allowance: credits.allowance,
        used: credits.used,
        remaining: credits.remaining,
        metered: credits.metered,
        metered_usage: credits.meteredUsage,
      },
    };
  }

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
