// Analyses an owner (or their agent) asks for: dashboard figures, a fresh spam verdict and a
// translation of one submission. Those that call a model or a translation service cost credits,
// charged through the pipeline's charger once per thing analysed, and are kept: asking again
// returns what was kept and charges nothing. The classifier and the translators are imported on
// first use: an API process that never analyses does not keep them in memory (about 6 MB of heap).
import type { Account } from '../accounts/store.ts';
import type { FormService } from '../forms/service.ts';
import { fail } from '../http/errors.ts';
import { submissionText } from '../pipeline/submission-text.ts';
import type { SubmissionService } from '../submissions/service.ts';
import type { AiServices } from './ai.ts';
import { overviewOf, type Overview, type OverviewRange } from './overview.ts';
import type { AnalysisStore, DashboardFigures } from './store.ts';
import { formStats } from './stats.ts';
import type { StatsStore } from './stats-store.ts';
import { summarizer } from './summary.ts';

export interface FreshSpamVerdict {
  spam: boolean;
  confidence: number;
  reason: string;
  signals: string[];
  /** `model`: the language model judged it (1 credit); `classifier`: the offline checks did (free). */
  source: 'model' | 'classifier';
  analysed_at: string;
}

export interface TranslationResult {
  language: string;
  original_language: string | null;
  translated_data: Record<string, string>;
  /** `pipeline`: the translation made on arrival; `analysis`: one made on request and kept. */
  source: 'pipeline' | 'analysis' | 'unchanged';
  credits_charged: number;
}

export function analysisService(deps: {
  store: AnalysisStore;
  stats: StatsStore;
  forms: FormService;
  submissions: SubmissionService;
  ai: AiServices;
  clock?: () => Date;
}) {
  const { store, forms, submissions, ai } = deps;
  const clock = deps.clock ?? (() => new Date());
  const overview = overviewOf(deps.stats, clock);

  return {
    /** The owner's figures: totals from the forms' counters, the rest from the daily counts (the last 7 and 30 UTC days, today included). */
    async dashboard(accountId: string): Promise<DashboardFigures> {
      const scope = { accountId };
      const [totals, replies, month] = await Promise.all([store.formTotals(accountId), deps.stats.replyTotals(accountId), overview(scope, 30)]);
      const recent = (days: number) => month.days.slice(-days).reduce(
        (sum, day) => ({ submissions: sum.submissions + day.received, spam: sum.spam + day.spam }), { submissions: 0, spam: 0 });
      return { ...totals, repliesDrafted: replies.drafted, repliesSent: replies.sent, last7: recent(7), last30: recent(30) };
    },

    /** The series of the dashboard's charts, for one form (checked to be the owner's) or all the owner's forms. */
    async overview(accountId: string, formId: string | null, range: OverviewRange): Promise<Overview> {
      if (formId === null) return overview({ accountId }, range);
      const form = await forms.get(accountId, formId);
      return overview({ formId: form.id }, range);
    },

    /** A form's submissions, spam, replies sent and failed deliveries per day or week. */
    stats: formStats({ store: deps.stats, forms, clock }),

    summarize: summarizer({ store, forms, submissions, ai, clock }),

    /** `maySpend`: false for a read-scoped key, which never spends credits: the offline classifier judges. */
    async analyzeSpam(account: Account, formId: string, id: string, maySpend: boolean): Promise<{ verdict: FreshSpamVerdict; credits_charged: number }> {
      const form = await forms.get(account.id, formId);
      const submission = await submissions.get(account.id, formId, id);
      const kept = (await store.findAnalysis(submission.id, 'spam')) as FreshSpamVerdict | null;
      if (kept) return { verdict: kept, credits_charged: 0 };
      const input = { formName: form.name, intent: form.settings.intent, fields: form.version.schema.fields, data: submission.data, repeatsFromSender: 0 };
      const charge = ai.model && maySpend ? await ai.credits.charge(account, submission.id, 'spam_analysis') : 'exhausted';
      const { checkIntelligent } = await import('../pipeline/spam/index.ts');
      const verdict = await checkIntelligent(input, charge === 'exhausted' ? null : ai.model);
      // The model did not answer usably: the offline verdict stands, and is not paid for.
      if (charge === 'charged' && verdict.source !== 'model') await ai.credits.refund(submission.id, 'spam_analysis');
      const fresh: FreshSpamVerdict = { ...verdict, analysed_at: clock().toISOString() };
      const saved = (await store.saveAnalysis(submission.id, 'spam', fresh, fresh.analysed_at)) as FreshSpamVerdict;
      return { verdict: saved, credits_charged: charge === 'charged' && verdict.source === 'model' ? 1 : 0 };
    },

    async translate(account: Account, formId: string, id: string, language: string, maySpend: boolean): Promise<TranslationResult> {
      const form = await forms.get(account.id, formId);
      const submission = await submissions.get(account.id, formId, id);
      const source = submission.original_language;
      const base = { language, original_language: source, credits_charged: 0 };
      if (language === account.language && submission.translated_data) {
        return { ...base, translated_data: submission.translated_data as Record<string, string>, source: 'pipeline' };
      }
      const kind = `translation:${language}`;
      const kept = (await store.findAnalysis(submission.id, kind)) as Record<string, string> | null;
      if (kept) return { ...base, translated_data: kept, source: 'analysis' };
      const texts = submissionText(submission.data, form.version.schema.fields);
      if (Object.keys(texts).length === 0 || source === language) return { ...base, translated_data: texts, source: 'unchanged' };
      if (!ai.translator) {
        throw fail.notConfigured('No translation service is configured on this server (INTAKE_TRANSLATE_URL, INTAKE_DEEPL_API_KEY or INTAKE_AI_BASE_URL).');
      }
      if (!maySpend) throw fail.insufficientScope('A read-scoped key cannot spend AI credits: this translation needs one. Use a key with the full scope.');
      // One charge per submission and language, apart from the pipeline's own translation (step `translation`).
      if ((await ai.credits.charge(account, submission.id, 'translation', language)) === 'exhausted') throw fail.aiCreditsExhausted();
      let translated: Record<string, string>;
      try {
        const { translateSubmission } = await import('../pipeline/translation/index.ts');
        translated = await translateSubmission(ai.translator, submission.data, form.version.schema.fields, language, source);
      } catch (error) {
        await ai.credits.refund(submission.id, 'translation', language);
        throw fail.providerUnavailable(`The translation service failed: ${error instanceof Error ? error.message : 'no answer'}. Nothing was charged; try again later.`);
      }
      const saved = (await store.saveAnalysis(submission.id, kind, translated, clock().toISOString())) as Record<string, string>;
      return { ...base, translated_data: saved, source: 'analysis', credits_charged: 1 };
    },
  };
}

export type AnalysisService = ReturnType<typeof analysisService>;
