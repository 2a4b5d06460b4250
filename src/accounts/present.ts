// The account as /api/account and the get_account tool show it: plan, language, allowance, credits.
import { Type } from 'typebox';
import type { Config } from '../config.ts';
import type { AccountService } from './service.ts';
import type { Account } from './store.ts';

export const LanguageCode = Type.String({
  pattern: '^[a-z]{2}$',
  'x-message': 'must be a two-letter ISO 639-1 code such as en or de',
  description: 'ISO 639-1 code: submissions of forms with localisation on are translated into it',
});

export const ReplyTo = Type.Unsafe<string | null>({
  type: ['string', 'null'], format: 'email', maxLength: 254,
  description: "Reply-To of smart replies emailed to submitters; null: the account's email",
});

export const AccountOutput = Type.Object({
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

export async function presentAccount(accounts: AccountService, config: Config, account: Account) {
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
