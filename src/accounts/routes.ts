// /api/account: the owner's plan, submission allowance and AI credits.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import { ownerOf, requireApiKey } from '../http/auth.ts';
import { errorHandlerFor } from '../http/error-replies.ts';
import type { AccountService } from './service.ts';

const AccountOutput = Type.Object({
  email: Type.String(),
  plan: Type.Enum(['free', 'pro']),
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
  app.setErrorHandler(errorHandlerFor('account', config.maxBodyBytes));
  app.addHook('preHandler', requireApiKey(accounts));

  app.get('/api/account', {
    schema: { tags: ['Account'], security: [{ apiKey: [] }], summary: 'Plan, allowance and AI credits', response: { 200: AccountOutput } },
  }, async (request) => {
    const { account } = ownerOf(request);
    const credits = await accounts.credits(account);
    return {
      email: account.email,
      plan: account.plan,
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
  });
};
