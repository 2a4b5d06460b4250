// The only code that reads the figures of the owner's dashboard and keeps the analyses agents
// asked for (a fresh spam verdict, a translation, a summary), so that asking twice costs once.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { fromJson, toCount } from '../db/values.ts';

export interface DashboardFigures {
  forms: number;
  submissions: number;
  spam: number;
  repliesDrafted: number;
  repliesSent: number;
  last7: { submissions: number; spam: number };
  last30: { submissions: number; spam: number };
}

const n = (value: unknown) => toCount((value ?? 0) as number | string);

export function analysisStore(db: Db) {
  return {
    async dashboard(accountId: string, since7: string, since30: string): Promise<DashboardFigures> {
      const totals = await db
        .selectFrom('forms')
        .select((eb) => [eb.fn.countAll().as('forms'), eb.fn.sum('submission_count').as('submissions'), eb.fn.sum('spam_count').as('spam')])
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      const recent = await db
        .selectFrom('submissions')
        .innerJoin('forms', 'forms.id', 'submissions.form_id')
        .select([
          sql<number>`sum(case when submissions.reply_status = 'completed' then 1 else 0 end)`.as('drafted'),
          sql<number>`sum(case when submissions.reply_status = 'sent' then 1 else 0 end)`.as('sent'),
          sql<number>`sum(case when submissions.created_at >= ${since7} then 1 else 0 end)`.as('s7'),
          sql<number>`sum(case when submissions.created_at >= ${since7} and submissions.spam_flag = ${sql.lit(true)} then 1 else 0 end)`.as('spam7'),
          sql<number>`sum(case when submissions.created_at >= ${since30} then 1 else 0 end)`.as('s30'),
          sql<number>`sum(case when submissions.created_at >= ${since30} and submissions.spam_flag = ${sql.lit(true)} then 1 else 0 end)`.as('spam30'),
        ])
        .where('forms.account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return {
        forms: n(totals.forms),
        submissions: n(totals.submissions),
        spam: n(totals.spam),
        repliesDrafted: n(recent.drafted),
        repliesSent: n(recent.sent),
        last7: { submissions: n(recent.s7), spam: n(recent.spam7) },
        last30: { submissions: n(recent.s30), spam: n(recent.spam30) },
      };
    },

    async findAnalysis(submissionId: string, kind: string): Promise<unknown | null> {
      const row = await db
        .selectFrom('submission_analyses')
        .select('result')
        .where('submission_id', '=', submissionId)
        .where('kind', '=', kind)
        .executeTakeFirst();
      return row ? (fromJson(row.result) as { value: unknown }).value : null;
    },

    /** Keeps the first analysis of a kind: two agents asking at once both get the one stored. */
    async saveAnalysis(submissionId: string, kind: string, result: unknown, now: string): Promise<unknown> {
      await db
        .insertInto('submission_analyses')
        // Wrapped: a bare JSON string would come back from jsonb already parsed, and be parsed again.
        .values({ submission_id: submissionId, kind, result: JSON.stringify({ value: result }), created_at: now })
        .onConflict((oc) => oc.columns(['submission_id', 'kind']).doNothing())
        .execute();
      return (await this.findAnalysis(submissionId, kind)) ?? result;
    },
  };
}

export type AnalysisStore = ReturnType<typeof analysisStore>;
