// Acting on many submissions at once: mark_spam, mark_not_spam, mark_read, mark_unread, mark_done,
// mark_not_done and delete_submissions take up to 500 ids, or a `where` that selects like list_submissions does. Each submission goes through the
// same service call as a single one (the same rules, the same learning from corrections); one that
// cannot be changed is reported and the rest go on.
import { Type, type Static } from 'typebox';
import { AppError } from '../../http/errors.ts';
import type { Owner } from '../../accounts/service.ts';
import type { Services } from '../../services.ts';
import { defineTool, DELETE, UPDATE } from '../tool.ts';
import { FormId } from './forms.ts';
import { searchQueryOf, SubmissionFilters, SubmissionId } from './submissions.ts';

export const BULK_LIMIT = 500;
/** Search pages a `where` may read in one call (each reads at most 20,000 positions). */
const MAX_SEARCH_PAGES = 10;

export const SubmissionWhere = Type.Object(SubmissionFilters, {
  additionalProperties: false, minProperties: 1, description: 'Selects submissions as list_submissions does; at least one member',
});

const BulkInput = Type.Object({
  form_id: FormId,
  submission_ids: Type.Optional(Type.Array(SubmissionId, { minItems: 1, maxItems: BULK_LIMIT, uniqueItems: true, description: `1 to ${BULK_LIMIT} submission ids` })),
  where: Type.Optional(SubmissionWhere),
}, { additionalProperties: false });

const BulkOutput = Type.Object({
  form_id: Type.String(),
  matched: Type.Integer({ description: 'Submissions the ids or the where named' }),
  succeeded: Type.Array(Type.String(), { description: 'Ids of the submissions changed' }),
  failed: Type.Array(Type.Object({ submission_id: Type.String(), code: Type.String(), message: Type.String() })),
  more: Type.Boolean({ description: `True when the where matches more than ${BULK_LIMIT}, or more than one call reads: call again with the same where` }),
});

type BulkArgs = Static<typeof BulkInput>;

/** The ids a call acts on: the given ones, or the newest matches of its where, up to the limit. */
async function selectIds(args: BulkArgs, owner: Owner, services: Services, defaultFilter: 'inbox' | 'spam' | 'all'): Promise<{ ids: string[]; more: boolean }> {
  // Another owner's form is refused as a whole, not reported submission by submission.
  await services.forms.get(owner.account.id, args.form_id);
  if ((args.submission_ids === undefined) === (args.where === undefined)) {
    throw new AppError('validation_error', 400, 'Give either submission_ids or where, not both and not neither.', { submission_ids: ['give this or where'] });
  }
  if (args.submission_ids) return { ids: args.submission_ids, more: false };
  const where = args.where!;
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SEARCH_PAGES && ids.length < BULK_LIMIT; page++) {
    const found = await services.submissions.search(owner.account.id, args.form_id, {
      ...searchQueryOf(where, defaultFilter),
      limit: Math.min(200, BULK_LIMIT - ids.length),
      cursor,
    });
    ids.push(...found.data.map((s) => s.id));
    if (found.next_cursor === null) return { ids, more: false };
    cursor = found.next_cursor;
  }
  return { ids, more: true };
}

async function actOnEach(args: BulkArgs, ids: string[], more: boolean, act: (id: string) => Promise<unknown>): Promise<Static<typeof BulkOutput>> {
  const succeeded: string[] = [];
  const failed: Static<typeof BulkOutput>['failed'] = [];
  for (const id of ids) {
    try {
      await act(id);
      succeeded.push(id);
    } catch (error) {
      if (!(error instanceof AppError) || error.code === 'internal_error') throw error;
      failed.push({ submission_id: id, code: error.code, message: error.message });
    }
  }
  return { form_id: args.form_id, matched: ids.length, succeeded, failed, more };
}

const SELECTION = `Pass submission_ids (1 to ${BULK_LIMIT}) or where (selects like list_submissions: filter, text, statuses, since/until; the newest ${BULK_LIMIT} matches are acted on, and more: true says to call again).`;

const spamCorrection = (spam: boolean) =>
  defineTool({
    name: spam ? 'mark_spam' : 'mark_not_spam',
    title: spam ? 'Mark submissions as spam' : 'Mark submissions as not spam',
    description: `${spam
      ? "Overrules the spam check: moves processed submissions to the spam folder, records that the owner's key did so, and updates the form's spam count."
      : "Overrules the spam check: moves processed submissions from spam back to the inbox, records that the owner's key did so, and updates the form's spam count."} ${SELECTION} where's filter defaults to ${spam ? 'inbox' : 'spam'}. Returns the ids changed and, for each that could not be (still being processed, not found), its error code. Free.`,
    input: BulkInput,
    output: BulkOutput,
    annotations: { ...UPDATE, destructiveHint: false },
    async run(args, { owner, services }) {
      const { ids, more } = await selectIds(args, owner, services, spam ? 'inbox' : 'spam');
      const by = { accountId: owner.account.id, keyId: owner.keyId, member: owner.memberEmail ?? null };
      return actOnEach(args, ids, more, (id) => services.submissions.correctSpam(by, args.form_id, id, spam));
    },
  });

/** Read and done: the owner's own triage states, which the dashboard shows (bold until read; the Done tab). */
const triageMark = (name: string, title: string, what: string, defaultFilter: 'inbox' | 'spam' | 'all', act: (services: Services, accountId: string, formId: string, id: string, member: string | null) => Promise<unknown>) =>
  defineTool({
    name,
    title,
    description: `${what} ${SELECTION} where's filter defaults to ${defaultFilter}. Returns the ids changed (or already so) and, for each not found, its error code. Free.`,
    input: BulkInput,
    output: BulkOutput,
    annotations: { ...UPDATE, destructiveHint: false },
    async run(args, { owner, services }) {
      const { ids, more } = await selectIds(args, owner, services, defaultFilter);
      return actOnEach(args, ids, more, (id) => act(services, owner.account.id, args.form_id, id, owner.memberEmail ?? null));
    },
  });

export const bulkTools = [
  spamCorrection(true),
  spamCorrection(false),
  triageMark('mark_read', 'Mark submissions as read', "Marks submissions read, as opening them in the dashboard does (they stop showing in bold).", 'inbox',
    (services, accountId, formId, id, member) => services.triage.markRead(accountId, formId, id, true, member)),
  triageMark('mark_unread', 'Mark submissions as unread', 'Marks submissions unread again: the dashboard shows them in bold.', 'inbox',
    (services, accountId, formId, id, member) => services.triage.markRead(accountId, formId, id, false, member)),
  triageMark('mark_done', 'Mark submissions as done', "Marks submissions done (archived): they leave the dashboard's Inbox tab for its Done tab, stay stored, and list_submissions finds them with done: true.", 'inbox',
    (services, accountId, formId, id, member) => services.triage.markDone(accountId, formId, id, true, member)),
  triageMark('mark_not_done', 'Mark submissions as not done', "Moves submissions marked done back to the dashboard's Inbox tab.", 'all',
    (services, accountId, formId, id, member) => services.triage.markDone(accountId, formId, id, false, member)),
  defineTool({
    name: 'delete_submissions',
    title: 'Delete submissions',
    description: `Deletes many submissions of a form for good and lowers its counts. ${SELECTION} where's filter defaults to inbox. A submission being processed right now is skipped and reported (cannot_delete). Confirm with the owner first, naming how many. Free.`,
    input: BulkInput,
    output: BulkOutput,
    annotations: DELETE,
    async run(args, { owner, services }) {
      const { ids, more } = await selectIds(args, owner, services, 'inbox');
      return actOnEach(args, ids, more, (id) => services.submissions.delete(owner.account.id, args.form_id, id));
    },
  }),
];
