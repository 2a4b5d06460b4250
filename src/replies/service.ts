// The rules of smart replies once the pipeline has drafted them: an owner edits a draft, sends it
// (once), or has a new one made. The MCP tools call the same functions.
import { randomUUID } from 'node:crypto';
import type { CreditCharger } from '../accounts/credits.ts';
import { openAiChatModel } from '../ai/openai-chat.ts';
import type { Config } from '../config.ts';
import { MailError } from '../delivery/email.ts';
import type { FormService } from '../forms/service.ts';
import { fail } from '../http/errors.ts';
import { knowledgeErrors, type KnowledgeService } from '../knowledge/service.ts';
import type { PipelineStore } from '../pipeline/store.ts';
import type { Submission, SubmissionStore } from '../submissions/store.ts';
import { useAlternative } from './evidence.ts';
import type { ReplySender } from './sender.ts';
import type { ReplyStore } from './store.ts';

export interface ReplyEdit {
  reply_subject?: string;
  reply_content?: string;
}

export interface ReplyServiceDeps {
  store: ReplyStore;
  sender: ReplySender;
  forms: FormService;
  submissions: SubmissionStore;
  pipeline: PipelineStore;
  knowledge: KnowledgeService;
  credits: CreditCharger;
  config: Config;
}

const FINAL = ['completed', 'skipped', 'failed'];

export function replyService(deps: ReplyServiceDeps) {
  async function owned(accountId: string, formId: string, id: string): Promise<Submission> {
    const form = await deps.forms.get(accountId, formId);
    const submission = await deps.submissions.get(form.id, id);
    if (!submission) throw fail.submissionNotFound();
    return submission;
  }

  async function reread(formId: string, id: string): Promise<Submission> {
    const submission = await deps.submissions.get(formId, id);
    if (!submission) throw fail.submissionNotFound();
    return submission;
  }

  function refuseSent(submission: Submission): void {
    if (submission.reply_status === 'sent') throw fail.cannotUpdate('The reply was already sent.');
  }

  /** Drafts the reply again from `named`, or from the form's knowledge base when smart replies are on. */
  async function redraft(formId: string, submission: Submission, named: string | null): Promise<Omit<DraftOutcome, 'drafted'>> {
    refuseSent(submission);
    if (!FINAL.includes(submission.processing_status)) throw fail.cannotUpdate('The submission is still being processed.');
    if (submission.spam_flag) throw fail.cannotUpdate('The submission is marked as spam; mark it as not spam first.');
    const work = await deps.pipeline.load(submission.id);
    if (!work) throw fail.submissionNotFound();
    const kbId = named ?? (work.form.smartReply ? work.form.knowledgeBaseId : null);
    if (!kbId) throw fail.cannotUpdate('Smart replies are off for this form.');
    const knowledge = await deps.knowledge.index(kbId);
    if (!knowledge) throw fail.cannotUpdate(named ? 'The knowledge base no longer exists.' : 'The form\'s knowledge base no longer exists.');
    const charge = await deps.credits.charge(work.owner, submission.id, 'smart_reply');
    if (charge === 'exhausted') throw fail.cannotUpdate('ai_credits_exhausted: there are no AI credits left for a reply.');
    // Loaded on first use: drafting detects languages, whose model the API process need not hold otherwise.
    const { draftReply } = await import('./draft.ts');
    const { draftInput } = await import('./prepare.ts');
    const { translatorFromConfig } = await import('../pipeline/translation/index.ts');
    const model = deps.config.ai ? openAiChatModel(deps.config.ai) : null;
    const translator = translatorFromConfig(deps.config.translation, model);
    let draft;
    try {
      draft = await draftReply(draftInput(work, kbId, knowledge), { model, translator });
    } catch (error) {
      throw fail.replyFailed(`The reply could not be translated: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (draft.kind === 'no_answer') {
      if (charge === 'charged') await deps.credits.refund(submission.id, 'smart_reply');
      throw fail.cannotUpdate(`The knowledge base has no answer to this submission (${draft.reason}).`);
    }
    const saved = await deps.store.saveDraft(submission.id, { subject: draft.subject, content: draft.body, reason: draft.reason, passages: draft.passages, confidence: draft.confidence });
    if (!saved) throw fail.cannotUpdate('The reply was sent or is being sent; it can no longer be changed.');
    return {
      submission: await reread(formId, submission.id),
      knowledgeBaseId: kbId,
      creditsCharged: charge === 'charged' ? deps.config.knowledge.replyCredits : 0,
    };
  }

  return {
    /** The owner's edit of the draft's subject or text; an edit of a submission without a draft makes one. */
    async edit(accountId: string, formId: string, id: string, edit: ReplyEdit, member: string | null = null): Promise<Submission> {
      const submission = await owned(accountId, formId, id);
      refuseSent(submission);
      if (edit.reply_content === undefined && submission.reply_content === null) {
        throw fail.cannotUpdate('There is no draft to change the subject of: give reply_content too.');
      }
      const saved = await deps.store.saveDraft(id, {
        ...(edit.reply_subject !== undefined && { subject: edit.reply_subject }),
        ...(edit.reply_content !== undefined && { content: edit.reply_content, reason: null }),
        editedBy: member,
      });
      if (!saved) throw fail.cannotUpdate('The reply was sent or is being sent; it can no longer be changed.');
      return reread(formId, id);
    },

    /** The draft with the next-best passage's sentence in place of the one it quoted (the dashboard's one click); again, and it is back. */
    async useAlternative(accountId: string, formId: string, id: string, member: string | null = null): Promise<Submission> {
      const submission = await owned(accountId, formId, id);
      refuseSent(submission);
      const evidence = submission.reply_confidence;
      if (!evidence?.alternative || submission.reply_content === null) throw fail.cannotUpdate('The draft has no other passage to quote.');
      const swapped = useAlternative(submission.reply_content, evidence);
      if (!swapped) throw fail.cannotUpdate('The draft no longer holds the sentence to replace: edit it by hand.');
      const saved = await deps.store.saveDraft(id, { content: swapped.content, confidence: swapped.evidence, editedBy: member });
      if (!saved) throw fail.cannotUpdate('The reply was sent or is being sent; it can no longer be changed.');
      return reread(formId, id);
    },

    /** Emails the draft to the submitter, once. */
    async send(accountId: string, formId: string, id: string, member: string | null = null): Promise<Submission> {
      const submission = await owned(accountId, formId, id);
      refuseSent(submission);
      let outcome;
      try {
        outcome = await deps.sender.send(id, `request:${randomUUID()}`, { lastAttempt: false });
      } catch (error) {
        if (error instanceof MailError) throw fail.replyFailed(`The reply could not be sent: ${error.message}`);
        throw error;
      }
      switch (outcome.kind) {
        case 'sent':
          await deps.store.sentBy(id, member);
          return reread(formId, id);
        case 'already_sent':
          throw fail.cannotUpdate('The reply was already sent.');
        case 'busy':
          throw fail.cannotUpdate('The reply is being sent right now.');
        case 'no_draft':
          throw fail.cannotUpdate('There is no reply to send: write one with PATCH (reply_content) or regenerate it.');
        case 'kept':
          throw fail.cannotUpdate(`The reply was not sent: ${outcome.reason}`);
      }
    },

    /** A new draft from the form's knowledge base as it is now; a submission's reply is charged once, however often it is made. */
    async regenerate(accountId: string, formId: string, id: string): Promise<Submission> {
      return (await redraft(formId, await owned(accountId, formId, id), null)).submission;
    },

    /**
     * For agents: the stored reply when there is one (nothing drafted, nothing charged), else a new
     * draft from the named knowledge base of the owner's, or the form's. `redraft` replaces a stored draft.
     */
    async draft(accountId: string, formId: string, id: string, options: { knowledgeBaseId?: string; redraft?: boolean } = {}): Promise<DraftOutcome> {
      const submission = await owned(accountId, formId, id);
      if (options.knowledgeBaseId !== undefined && !(await deps.knowledge.owns(accountId, options.knowledgeBaseId))) throw knowledgeErrors.notFound();
      if (submission.reply_content !== null && !options.redraft) return { submission, drafted: false, knowledgeBaseId: null, creditsCharged: 0 };
      return { ...(await redraft(formId, submission, options.knowledgeBaseId ?? null)), drafted: true };
    },
  };
}

export interface DraftOutcome {
  submission: Submission;
  /** False when the stored reply was returned as it was. */
  drafted: boolean;
  /** The knowledge base a new draft was made from. */
  knowledgeBaseId: string | null;
  creditsCharged: number;
}

export type ReplyService = ReturnType<typeof replyService>;
