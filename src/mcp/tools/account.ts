// The owner's account as /api/account shows it, and a form's activity over time.
import { Type } from 'typebox';
import { AccountOutput, presentAccount } from '../../accounts/present.ts';
import { MAX_DAYS } from '../../analysis/stats.ts';
import { defineTool, READ } from '../tool.ts';
import { FormId } from './forms.ts';

const Counts = {
  received: Type.Integer({ description: 'Submissions that arrived' }),
  spam: Type.Integer({ description: 'Of those, caught as spam (or marked so by the owner)' }),
  replied: Type.Integer({ description: 'Of those, answered by a smart reply that was sent (whenever it was sent)' }),
  delivery_failures: Type.Integer({ description: 'Notifications created in the period that failed for good' }),
};
const DateOnly = (description: string) => Type.String({ format: 'date', description });

export const accountTools = [
  defineTool({
    name: 'get_account',
    title: 'Get the account',
    description: "The owner's account: email, plan (free or pro), the language submissions are translated into, the Reply-To of smart replies, submissions received against the free plan's limit, and AI credits (allowance, used, remaining, and whether pro usage is now metered). Free.",
    input: Type.Object({}, { additionalProperties: false }),
    output: AccountOutput,
    annotations: READ,
    async run(_args, { owner, services, config }) {
      return presentAccount(services.accounts, config, owner.account);
    },
  }),

  defineTool({
    name: 'get_submission_stats',
    title: 'Submission counts over time',
    description: `A form's activity per day or per week (ISO weeks, Monday to Sunday, UTC) from from to to (dates, both included; by default the last 30 days, or the last 12 weeks): submissions received, spam, smart replies sent and failed deliveries, every period listed (zeros included), and the totals; each submission counts on the day it arrived, and a deleted one no longer counts. At most ${MAX_DAYS.day} days by day, ${MAX_DAYS.week} by week. Free.`,
    input: Type.Object({
      form_id: FormId,
      interval: Type.Optional(Type.Enum(['day', 'week'], { description: 'day (default) or week' })),
      from: Type.Optional(DateOnly('First day, YYYY-MM-DD (UTC); a week interval starts on its Monday')),
      to: Type.Optional(DateOnly('Last day, YYYY-MM-DD (UTC); default today')),
    }, { additionalProperties: false }),
    output: Type.Object({
      form_id: Type.String(),
      interval: Type.Enum(['day', 'week']),
      from: Type.String({ format: 'date' }),
      to: Type.String({ format: 'date' }),
      periods: Type.Array(Type.Object({ start: Type.String({ format: 'date', description: 'The first day of the period' }), ...Counts })),
      totals: Type.Object(Counts),
    }),
    annotations: READ,
    async run({ form_id, interval = 'day', from, to }, { owner, services }) {
      return services.analysis.stats(owner.account.id, form_id, { interval, from, to });
    },
  }),
];
