// Submission tools: the submission service behind /api/forms/{id}/submissions, plus search.
import { Type } from 'typebox';
import { defineTool, DELETE, READ, UNTRUSTED_NOTE, type ToolContext } from '../tool.ts';
import { AgentSubmission, forAgent } from './agent-submission.ts';
import { FormId } from './forms.ts';

export const SubmissionId = Type.String({ minLength: 1, maxLength: 100, description: 'The submission id (from list_submissions)' });
/**
 * A submission's reference: its id, and its form's as Intake's tools always took it. The hosted
 * service's tools take the submission id alone (ids are unique), so form_id is optional: without
 * it the submission is looked for among the owner's forms only.
 */
export const SubmissionRef = {
  form_id: Type.Optional({ ...FormId, description: "The form's id; optional: without it the submission is found among the owner's forms by its id" }),
  submission_id: SubmissionId,
};

/** The form of a SubmissionRef: the one given, or the owner's form that holds the submission (404 when none does). */
export async function formOfRef(args: { form_id?: string; submission_id: string }, { owner, services }: Pick<ToolContext, 'owner' | 'services'>): Promise<string> {
  return args.form_id ?? services.submissions.formIdOf(owner.account.id, args.submission_id);
}

/** Said in the description of every tool taking a SubmissionRef. */
export const REF_NOTE = 'form_id may be left out (as the hosted service\'s signature does): the submission id alone finds it among the owner\'s forms.';
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/** What selects submissions, in list_submissions and in the bulk tools' `where`. */
export const SubmissionFilters = {
  filter: Type.Optional(Type.Enum(['inbox', 'spam', 'all'], { description: 'inbox: not spam; spam; all' })),
  done: Type.Optional(Type.Boolean({ description: 'true: only those marked done (archived); false: only those not done; absent: both' })),
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text a submitted value or its translation contains' })),
  processing_status: Type.Optional(Type.Enum(['pending', 'processing', 'completed', 'skipped', 'failed'])),
  reply_status: Type.Optional(Type.Enum(['pending', 'completed', 'sent', 'failed'])),
  since: Type.Optional(Timestamp('Only submissions that arrived at or after this time')),
  until: Type.Optional(Timestamp('Only submissions that arrived before this time')),
};

type Filters = { [K in Exclude<keyof typeof SubmissionFilters, 'done'>]?: string } & { done?: boolean };

/** The search service's query for those filters. */
export function searchQueryOf(filters: Filters, defaultFilter: 'inbox' | 'spam' | 'all') {
  return {
    filter: (filters.filter ?? defaultFilter) as 'inbox' | 'spam' | 'all',
    ...(filters.done !== undefined && { done: filters.done }),
    text: filters.text,
    processingStatus: filters.processing_status as 'pending' | 'processing' | 'completed' | 'skipped' | 'failed' | undefined,
    replyStatus: filters.reply_status as 'pending' | 'completed' | 'sent' | 'failed' | undefined,
    since: filters.since && new Date(filters.since).toISOString(),
    until: filters.until && new Date(filters.until).toISOString(),
  };
}

export const submissionTools = [
  defineTool({
    name: 'list_submissions',
    title: 'List submissions',
    description: `Lists a form's submissions, newest first. filter: inbox (not spam, the default), spam or all; done: true for those the owner marked done (archived), false for those still to deal with; text: words a submitted value or its translation must contain (case-insensitive); processing_status and reply_status narrow further; since/until bound the arrival time. Up to limit (default 20, at most 200) per call: pass next_cursor back as cursor for older ones. A search with text, statuses or times reads at most the 20,000 newest submissions per call, so a page may come back short yet carry a next_cursor: call again with it to search further back. The hosted service's signature list_submissions(form_id, filter, limit) works as it stands. Free. ${UNTRUSTED_NOTE}`,
    input: Type.Object({
      form_id: FormId,
      ...SubmissionFilters,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Default 20' })),
      cursor: Type.Optional(Type.String({ maxLength: 100, description: 'next_cursor of the previous call' })),
    }, { additionalProperties: false }),
    output: Type.Object({
      submissions: Type.Array(AgentSubmission),
      next_cursor: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last' }),
    }),
    annotations: READ,
    async run(args, { owner, services }) {
      const page = await services.submissions.search(owner.account.id, args.form_id, {
        ...searchQueryOf(args, 'inbox'),
        limit: args.limit ?? 20,
        cursor: args.cursor,
      });
      return { submissions: page.data.map(forAgent), next_cursor: page.next_cursor };
    },
  }),

  defineTool({
    name: 'get_submission',
    title: 'Get a submission',
    description: `One submission in full: its data, processing status, spam verdict and reason, read and done states, language and translation, reply status and content, and the submitter's metadata (IP, user agent, referer, UTM). Reading it does not mark it read (mark_read does). ${REF_NOTE} Free. ${UNTRUSTED_NOTE}`,
    input: Type.Object(SubmissionRef, { additionalProperties: false }),
    output: AgentSubmission,
    annotations: READ,
    async run(args, context) {
      return forAgent(await context.services.submissions.get(context.owner.account.id, await formOfRef(args, context), args.submission_id));
    },
  }),

  defineTool({
    name: 'delete_submission',
    title: 'Delete a submission',
    description: `Deletes one submission for good and lowers the form's counts. Fails while it is being processed; retry a moment later. Confirm with the owner first. ${REF_NOTE} Free.`,
    input: Type.Object(SubmissionRef, { additionalProperties: false }),
    output: AgentSubmission,
    annotations: DELETE,
    async run(args, context) {
      return forAgent(await context.services.submissions.delete(context.owner.account.id, await formOfRef(args, context), args.submission_id));
    },
  }),
];

