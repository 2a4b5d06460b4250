// The forms' totals of the owner's dashboard figures, and the only code that keeps the analyses agents
// asked for (a fresh spam verdict, a translation, a summary), so that asking twice costs once.
// A verdict or a translation is of one submission and goes with it; a summary is of many, and is
// kept apart with the ids it was made from, so that deleting any of them deletes it (migration 0028).
import type { Db } from '../db/database.ts';
import { fromJson, isForeignKeyViolation, toCount } from '../db/values.ts';
import { formSubmissionCount } from '../db/counter-shards.ts';

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

export interface KeptSummary {
  id: string;
  formId: string;
  text: string;
  /** Every submission it was made from. */
  sourceIds: string[];
  createdAt: string;
}

/** Source rows per statement: 2 values each. */
const SOURCE_CHUNK = 500;

export function analysisStore(db: Db) {
  return {
    /** Forms, submissions and spam of an account, from the forms' own counters. */
    async formTotals(accountId: string): Promise<Pick<DashboardFigures, 'forms' | 'submissions' | 'spam'>> {
      const totals = await db
        .selectFrom('forms')
        .select((eb) => [eb.fn.countAll().as('forms'), eb.fn.sum(formSubmissionCount('forms')).as('submissions'), eb.fn.sum('spam_count').as('spam')])
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

    async findSummary(id: string): Promise<string | null> {
      const row = await db.selectFrom('submission_summaries').select('summary').where('id', '=', id).executeTakeFirst();
      return row?.summary ?? null;
    },

    /**
     * Keeps the summary with its sources, or keeps nothing when one of them was deleted meanwhile
     * (the foreign key refuses it; on PostgreSQL a delete of the same rows may also end in a
     * deadlock, decided the same way): a summary of a deleted submission must not outlive it.
     * Returns the kept text (the first one, when two were made at once).
     */
    async saveSummary(summary: KeptSummary): Promise<string> {
      try {
        return await db.transaction().execute(async (tx) => {
          const inserted = await tx.insertInto('submission_summaries')
            .values({ id: summary.id, form_id: summary.formId, summary: summary.text, created_at: summary.createdAt })
            .onConflict((oc) => oc.column('id').doNothing()).returning('id').executeTakeFirst();
          if (!inserted) return (await tx.selectFrom('submission_summaries').select('summary').where('id', '=', summary.id).executeTakeFirst())?.summary ?? summary.text;
          // In one order: two writers of overlapping sources lock the submissions' keys alike.
          const ids = [...new Set(summary.sourceIds)].sort();
          for (let i = 0; i < ids.length; i += SOURCE_CHUNK) {
            await tx.insertInto('submission_summary_sources')
              .values(ids.slice(i, i + SOURCE_CHUNK).map((submissionId) => ({ submission_id: submissionId, summary_id: summary.id }))).execute();
          }
          return summary.text;
        });
      } catch (error) {
        if (isForeignKeyViolation(error) || (error as { code?: string }).code === '40P01') return summary.text;
        throw error;
      }
    },

  };
}

export type AnalysisStore = ReturnType<typeof analysisStore>;
