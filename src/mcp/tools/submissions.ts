// Submission tools: the submission service behind /api/forms/{id}/submissions, plus search.
import { Type } from 'typebox';
import { defineTool, DELETE, READ, UNTRUSTED_NOTE } from '../tool.ts';
import { AgentSubmission, forAgent } from './agent-submission.ts';
import { FormId } from './forms.ts';

export const SubmissionId = Type.String({ minLength: 1, maxLength: 100, description: 'The submission id (from list_submissions)' });
export const SubmissionRef = { form_id: FormId, submission_id: SubmissionId };
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/** What selects submissions, in list_submissions and in the bulk tools' `where`. */
export const SubmissionFilters = {
  filter: Type.Optional(Type.Enum(['inbox', 'spam', 'all'], { description: 'inbox: not spam; spam; all' })),
  done: Type.Optional(Type.Boolean({ description: 'true: only those marked done (archived); false: only those not done; absent: both' })),
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the submitted data contains' })),
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
    description: `Lists a form's submissions, newest first. filter: inbox (not spam, the default), spam or all; done: true for those the owner marked done (archived), false for those still to deal with; text: words the submitted data must contain (case-insensitive); processing_status and reply_status narrow further; since/until bound the arrival time. Up to limit (default 20, at most 200) per call: pass next_cursor back as cursor for older ones. A search with text, statuses or times reads at most the 20,000 newest submissions per call, so a page may come back short yet carry a next_cursor: call again with it to search further back. Free. ${UNTRUSTED_NOTE}`,
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
    description: `One submission in full: its data, processing status, spam verdict and reason, read and done states, language and translation, reply status and content, and the submitter's metadata (IP, user agent, referer, UTM). Reading it does not mark it read (mark_read does). Free. ${UNTRUSTED_NOTE}`,
    input: Type.Object(SubmissionRef, { additionalProperties: false }),
    output: AgentSubmission,
    annotations: READ,
    async run({ form_id, submission_id }, { owner, services }) {
      return forAgent(await services.submissions.get(owner.account.id, form_id, submission_id));
    },
  }),

  defineTool({
    name: 'delete_submission',
    title: 'Delete a submission',
    description: 'Deletes one submission for good and lowers the form\'s counts. Fails while it is being processed; retry a moment later. Confirm with the owner first. Free.',
    input: Type.Object(SubmissionRef, { additionalProperties: false }),
    output: AgentSubmission,
    annotations: DELETE,
    async run({ form_id, submission_id }, { owner, services }) {
      return forAgent(await services.submissions.delete(owner.account.id, form_id, submission_id));
    },
  }),
];

