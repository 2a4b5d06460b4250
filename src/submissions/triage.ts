// The owner's triage: read and done marks on one submission, and bulk actions (read, unread, done,
// not done, spam, not spam, delete) on up to BULK_IDS ids or on everything a selection matches.
// "All matching" walks the form newest first in chunks, each its own statements and transaction,
// and yields to the event loop between chunks, so ten thousand submissions never hold it for long
// (on SQLite every statement runs on it). Spam marks go through the same correction as a single
// one: the verdict recorded, skipped steps resumed, the owner's spam checks taught.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fail } from '../http/errors.ts';
import type { FormService } from '../forms/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { correctionEffects } from './service.ts';
import type { Submission, SubmissionStore } from './store.ts';
import type { Selection, TriageStore } from './triage-store.ts';

export const BULK_ACTIONS = ['read', 'unread', 'done', 'not_done', 'spam', 'not_spam', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** Ids one request may name. */
export const BULK_IDS = 500;
/** Submissions one "all matching" request acts on at most; `more` says to send it again. */
export const BULK_MATCHING_LIMIT = 100_000;
/** Rows read, and acted on, per chunk. */
const CHUNK = 500;
/** Spam marks work out each submission's features for the spam learning: smaller chunks keep each turn of the loop short. */
const SPAM_CHUNK = 100;
/** Failures listed in a result; `failed_count` counts them all. */
const LISTED_FAILURES = 100;

export type BulkTarget = { ids: string[] } | { where: Selection };

export interface BulkFailure {
  id: string;
  code: string;
  message: string;
}

export interface BulkResult {
  action: BulkAction;
  /** Submissions the ids named, or the selection matched. */
  matched: number;
  changed: number;
  /** Already in the state asked for. */
  unchanged: number;
  failed: BulkFailure[];
  failed_count: number;
  /** True when the selection matches more than one request acts on: send it again. */
  more: boolean;
}

/** Who acts: the account, and the key (or dashboard session) recorded on spam corrections. */
export interface Actor {
  accountId: string;
  keyId: string;
  /** The member who acts (their email), recorded on the marks; absent for the workspace itself. */
  member?: string | null;
}

type Outcome = 'changed' | 'unchanged' | { code: string; message: string };

const MISSING = { code: 'submission_not_found', message: 'Submission not found' };
const BUSY = { code: 'cannot_delete', message: 'The submission is being processed right now; try again in a moment.' };
const UNPROCESSED = { code: 'cannot_update', message: 'The submission has not been processed yet; correct its spam flag once it has.' };

export function triageService(deps: { forms: FormService; store: SubmissionStore; triage: TriageStore; queue: JobQueue; clock?: () => Date }) {
  const { forms, store, triage, queue } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** One chunk's action, with each id's outcome. */
  async function apply(actor: Actor, formId: string, action: BulkAction, ids: string[]): Promise<Map<string, Outcome>> {
    const at = clock().toISOString();
    const outcomes = new Map<string, Outcome>();
    if (action === 'read' || action === 'unread' || action === 'done' || action === 'not_done') {
      const marks = action === 'read' || action === 'unread'
        ? await triage.markRead(formId, ids, action === 'read', at, actor.member ?? null)
        : await triage.markDone(formId, ids, action === 'done', at, actor.member ?? null);
      for (const [id, mark] of marks) outcomes.set(id, mark === 'missing' ? MISSING : mark);
    } else if (action === 'delete') {
      for (const [id, result] of await store.delete(formId, ids)) outcomes.set(id, result === 'deleted' ? 'changed' : result === 'busy' ? BUSY : MISSING);
    } else {
      const results = await store.correctSpam(formId, ids, action === 'spam', actor.keyId, at, correctionEffects(queue, actor.accountId), actor.member ?? null);
      queue.wake();
      for (const [id, result] of results) {
        outcomes.set(id, result === 'corrected' ? 'changed' : result === 'unchanged' ? 'unchanged' : result === 'unprocessed' ? UNPROCESSED : MISSING);
      }
    }
    return outcomes;
  }

  function tally(result: BulkResult, outcomes: Map<string, Outcome>): void {
    result.matched += outcomes.size;
    for (const [id, outcome] of outcomes) {
      if (outcome === 'changed') result.changed++;
      else if (outcome === 'unchanged') result.unchanged++;
      else {
        result.failed_count++;
        if (result.failed.length < LISTED_FAILURES) result.failed.push({ id, ...outcome });
      }
    }
  }

  async function markOne(accountId: string, formId: string, id: string, action: BulkAction, member: string | null): Promise<Submission> {
    const form = await forms.get(accountId, formId);
    const outcome = (await apply({ accountId, keyId: accountId, member }, form.id, action, [id])).get(id);
    if (outcome === MISSING) throw fail.submissionNotFound();
    const found = await store.get(form.id, id);
    if (!found) throw fail.submissionNotFound();
    return found;
  }

  return {
    /** `member`: who marks it (their email), recorded as read_by / done_by. */
    markRead: (accountId: string, formId: string, id: string, read: boolean, member: string | null = null) => markOne(accountId, formId, id, read ? 'read' : 'unread', member),
    markDone: (accountId: string, formId: string, id: string, done: boolean, member: string | null = null) => markOne(accountId, formId, id, done ? 'done' : 'not_done', member),

    /** The dashboard's tab counts: Inbox, Done, Spam, All. */
    async tabCounts(accountId: string, formId: string) {
      return store.tabCounts((await forms.get(accountId, formId)).id);
    },

    /** The submissions before and after one in a listing, for the submission page's previous and next. */
    async neighbours(accountId: string, formId: string, id: string, selection: Selection) {
      return triage.neighbours((await forms.get(accountId, formId)).id, id, selection);
    },

    async bulk(actor: Actor, formId: string, action: BulkAction, target: BulkTarget): Promise<BulkResult> {
      // Another owner's form is refused as a whole, not reported submission by submission.
      const form = await forms.get(actor.accountId, formId);
      const result: BulkResult = { action, matched: 0, changed: 0, unchanged: 0, failed: [], failed_count: 0, more: false };
      if ('ids' in target) {
        const ids = [...new Set(target.ids)];
        if (ids.length === 0 || ids.length > BULK_IDS) throw fail.invalidParameters(`Give 1 to ${BULK_IDS} ids.`, { ids: [`must hold 1 to ${BULK_IDS} ids`] });
        tally(result, await apply(actor, form.id, action, ids));
        return result;
      }
      // Only what had arrived when the request began: a walk newest first from there.
      const newest = await triage.newestSeq(form.id);
      let below: number | null = newest === null ? null : newest + 1;
      while (below !== null) {
        const chunk = await triage.matchingChunk(form.id, target.where, below, action === 'spam' || action === 'not_spam' ? SPAM_CHUNK : CHUNK);
        if (chunk.ids.length > 0) {
          const room = BULK_MATCHING_LIMIT - result.matched;
          tally(result, await apply(actor, form.id, action, chunk.ids.slice(0, room)));
          if (chunk.ids.length > room || (result.matched === BULK_MATCHING_LIMIT && chunk.nextBelowSeq !== null)) {
            result.more = true;
            break;
          }
        }
        below = chunk.nextBelowSeq;
        await nextTurn();
      }
      return result;
    },
  };
}

export type TriageService = ReturnType<typeof triageService>;
