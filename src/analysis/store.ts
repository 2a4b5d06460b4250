// The forms' totals of the owner's dashboard figures, and the only code that keeps the analyses agents
// asked for (a fresh spam verdict, a translation, a summary), so that asking twice costs once.
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
    /** Forms, submissions and spam of an account, from the forms' own counters. */
    async formTotals(accountId: string): Promise<Pick<DashboardFigures, 'forms' | 'submissions' | 'spam'>> {
      const totals = await db
        .selectFrom('forms')
        .select((eb) => [eb.fn.countAll().as('forms'), eb.fn.sum('submission_count').as('submissions'), eb.fn.sum('spam_count').as('spam')])
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return { forms: n(totals.forms), submissions: n(totals.submissions), spam: n(totals.spam) };
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
