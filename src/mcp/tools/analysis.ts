// Analysis tools: dashboard figures, a summary of a form's submissions, a spam verdict, a translation.
import { Type } from 'typebox';
import { AppError } from '../../http/errors.ts';
import { defineTool, READ, UNTRUSTED_NOTE } from '../tool.ts';
import { UntrustedContent } from './agent-submission.ts';
import { FormId } from './forms.ts';
import { formOfRef, REF_NOTE, SubmissionRef } from './submissions.ts';

const Period = Type.Object({ submissions: Type.Integer(), spam: Type.Integer() });
const Counts = Type.Record(Type.String(), Type.Integer());
const nullable = (type: string, description: string) => Type.Unsafe<string | null>({ type: [type, 'null'], description });
const SpamVerdict = Type.Object({
  spam: Type.Boolean(),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'How sure that it IS spam' }),
  reason: Type.String(),
  signals: Type.Array(Type.String()),
  source: Type.Enum(['model', 'classifier']),
  analysed_at: Type.String({ format: 'date-time' }),
});
/**
 * Changes nothing of the owner's data, so a read key may call it; it may call a model or a
 * translation service and spend credits, which only a full key does. Asking again is free.
 */
const PAID = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** summarize_submissions' sample, or its hosted-service name limit; both given must agree. */
function sampleOf(args: { sample?: number; limit?: number }): number {
  if (args.sample !== undefined && args.limit !== undefined && args.sample !== args.limit) {
    throw new AppError('validation_error', 400, 'sample and limit are one setting under two names: give one, or both equal.', { limit: ['differs from sample'] });
  }
  return args.sample ?? args.limit ?? 200;
}

export const analysisTools = [
  defineTool({
    name: 'get_dashboard_stats',
    title: 'Dashboard figures',
    description: "The owner's figures across all forms: forms, submissions, spam caught, smart replies drafted and sent, and submissions and spam in the last 7 and 30 days (UTC days, today included). The hosted service's keys are there too: total_forms, total_submissions, spam_blocked and ai_replies (drafted and sent). Free.",
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({
      forms: Type.Integer(), submissions: Type.Integer(), spam_caught: Type.Integer(),
      replies_drafted: Type.Integer(), replies_sent: Type.Integer(), last_7_days: Period, last_30_days: Period,
      total_forms: Type.Integer({ description: 'forms, under the hosted service\'s name' }),
      total_submissions: Type.Integer({ description: 'submissions, under the hosted service\'s name' }),
      spam_blocked: Type.Integer({ description: 'spam_caught, under the hosted service\'s name' }),
      ai_replies: Type.Integer({ description: 'Smart replies made: replies_drafted + replies_sent' }),
    }),
    annotations: READ,
    async run(_args, { owner, services }) {
      const f = await services.analysis.dashboard(owner.account.id);
      return {
        forms: f.forms, submissions: f.submissions, spam_caught: f.spam, replies_drafted: f.repliesDrafted,
        replies_sent: f.repliesSent, last_7_days: f.last7, last_30_days: f.last30,
        total_forms: f.forms, total_submissions: f.submissions, spam_blocked: f.spam, ai_replies: f.repliesDrafted + f.repliesSent,
      };
    },
  }),

  defineTool({
    name: 'summarize_submissions',
    title: 'Summarise submissions',
    description: `Summarises a form's newest submissions (up to sample, default 200, at most 1000; limit is the same, as the hosted service's summarize_submissions(form_id, limit) names it; filter all by default, since/until to narrow): how many, spam share, languages, date range, how often each choice of a choice field was picked, and recent examples. Computed offline for free; when the server has a language model, model_summary adds a short written summary for 1 AI credit, kept so that the same question about the same submissions is not charged again (read keys never spend credits). ${UNTRUSTED_NOTE}`,
    input: Type.Object({
      form_id: FormId,
      filter: Type.Optional(Type.Enum(['inbox', 'spam', 'all'], { description: 'all (default), inbox or spam' })),
      since: Type.Optional(Type.String({ format: 'date-time' })),
      until: Type.Optional(Type.String({ format: 'date-time' })),
      sample: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'How many of the newest submissions to read; default 200' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "sample under the hosted service's name (give one, or both equal)" })),
    }, { additionalProperties: false }),
    output: Type.Object({
      form: Type.Object({ id: Type.String(), name: Type.String(), submission_count: Type.Integer(), spam_count: Type.Integer() }),
      analysed: Type.Integer({ description: 'Submissions read' }),
      complete: Type.Boolean({ description: 'True when every submission matching the filter was read' }),
      spam: Type.Integer(),
      spam_share: Type.Number(),
      languages: Counts,
      date_range: Type.Unsafe<{ from: string; to: string } | null>({
        type: ['object', 'null'], properties: { from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } },
      }),
      choices: Type.Record(Type.String(), Counts, { description: 'Choice field → value → how often' }),
      recent_examples: Type.Array(Type.Object({ id: Type.String(), created_at: Type.String(), untrusted_content: Type.Object({ data: UntrustedContent.properties.data }) })),
      model_summary: nullable('string', 'Written by the language model from the submissions; null without a model'),
      model_summary_note: nullable('string', 'Why there is no model summary'),
      credits_charged: Type.Integer(),
    }),
    annotations: PAID,
    async run(args, { owner, services }) {
      return services.analysis.summarize(owner.account, args.form_id, {
        filter: args.filter ?? 'all',
        since: args.since && new Date(args.since).toISOString(),
        until: args.until && new Date(args.until).toISOString(),
        sample: sampleOf(args),
      }, owner.scope === 'full');
    },
    target: (args) => args.form_id,
  }),

  defineTool({
    name: 'analyze_spam',
    title: 'Analyse spam',
    description: `A submission's spam verdict: \`stored\` is the one it got on arrival (or the owner's correction). With fresh: true, it is judged again now by the form's intelligent checks: the language model when the server has one (1 AI credit; without credits, without a model or with a read key, the offline classifier judges for free). The fresh verdict is kept: asking again returns it and charges nothing. It never changes the submission; use mark_spam or mark_not_spam for that. ${REF_NOTE}`,
    input: Type.Object({ ...SubmissionRef, fresh: Type.Optional(Type.Boolean({ description: 'Judge it again now (default false)' })) }, { additionalProperties: false }),
    output: Type.Object({
      submission_id: Type.String(),
      stored: Type.Object({
        spam: Type.Boolean(),
        confidence: Type.Unsafe<number | null>({ type: ['number', 'null'] }),
        reason: nullable('string', 'Why'),
        corrected_by_owner: Type.Boolean(),
        processing_status: Type.String(),
      }),
      fresh: Type.Unsafe<unknown>({ anyOf: [SpamVerdict, { type: 'null' }], description: 'The fresh verdict, when asked for' }),
      credits_charged: Type.Integer(),
    }),
    annotations: PAID,
    async run(args, context) {
      const { owner, services } = context;
      const { submission_id, fresh } = args;
      const form_id = await formOfRef(args, context);
      const submission = await services.submissions.get(owner.account.id, form_id, submission_id);
      const stored = {
        spam: submission.spam_flag, confidence: submission.spam_confidence, reason: submission.spam_reason,
        corrected_by_owner: submission.spam_corrected_at !== null, processing_status: submission.processing_status,
      };
      if (!fresh) return { submission_id: submission.id, stored, fresh: null, credits_charged: 0 };
      const analysed = await services.analysis.analyzeSpam(owner.account, form_id, submission_id, owner.scope === 'full');
      return { submission_id: submission.id, stored, fresh: analysed.verdict, credits_charged: analysed.credits_charged };
    },
  }),

  defineTool({
    name: 'translate_submission',
    title: 'Translate a submission',
    description: `Translates the text fields of a submission into language (ISO 639-1; default the account's language). The translation made on arrival is returned for free when there is one; otherwise the server's translation service translates it for 1 AI credit, and the result is kept: asking again is free. Text already in that language costs nothing. A read key gets only translations already made. ${REF_NOTE} ${UNTRUSTED_NOTE}`,
    input: Type.Object({
      ...SubmissionRef,
      language: Type.Optional(Type.String({ pattern: '^[a-z]{2}$', 'x-message': 'must be a two-letter ISO 639-1 code such as en or de' })),
    }, { additionalProperties: false }),
    output: Type.Object({
      submission_id: Type.String(),
      language: Type.String(),
      original_language: nullable('string', 'Detected on arrival'),
      source: Type.Enum(['pipeline', 'analysis', 'unchanged']),
      credits_charged: Type.Integer(),
      untrusted_content: Type.Object({ translated_data: Type.Record(Type.String(), Type.String()) }),
    }),
    annotations: PAID,
    async run(args, context) {
      const { owner, services } = context;
      const { submission_id, language } = args;
      const result = await services.analysis.translate(owner.account, await formOfRef(args, context), submission_id, language ?? owner.account.language, owner.scope === 'full');
      const { translated_data, ...facts } = result;
      return { submission_id, ...facts, untrusted_content: { translated_data } };
    },
  }),
];
