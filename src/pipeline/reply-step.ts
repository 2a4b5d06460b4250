// The smart-reply step: for a non-spam submission of a form with smart replies on, a reply drafted
// from the form's knowledge base, for the credits a reply costs (charged once per submission; given
// back when no reply could be made). A step that waited on a model or a translator records its
// result at once, so a retried job never drafts (or charges) again.
import type { CreditCharger } from '../accounts/credits.ts';
import type { ChatModel } from '../ai/chat-model.ts';
import type { KnowledgeService } from '../knowledge/service.ts';
import { draftReply } from '../replies/draft.ts';
import { draftInput } from '../replies/prepare.ts';
import type { PipelineStore, StepResult, Work } from './store.ts';
import { StepFailure } from './step-failure.ts';
import { Superseded } from './superseded.ts';
import type { Translator } from './translation/index.ts';

export interface ReplyStepOutcome {
  result: StepResult;
  creditsExhausted: boolean;
}

export interface ReplyStepDeps {
  store: PipelineStore;
  credits: CreditCharger;
  knowledge: KnowledgeService;
  model: ChatModel | null;
  translator: Translator | null;
  beginRemote(work: Work): Promise<boolean>;
  log?: { info(object: object, message: string): void };
}

export async function replyStep(work: Work, soFar: StepResult, deps: ReplyStepDeps): Promise<ReplyStepOutcome> {
  const none = (result: StepResult = {}): ReplyStepOutcome => ({ result, creditsExhausted: false });
  if (work.submission.steps.includes('reply')) return none();
  const { form, submission } = work;
  if (!form.smartReply || !form.knowledgeBaseId) return none({ reply_reason: 'smart_replies_disabled' });

  const done = (result: StepResult): ReplyStepOutcome => {
    work.submission.steps.push('reply');
    return none(result);
  };
  const knowledge = await deps.knowledge.index(form.knowledgeBaseId);
  if (!knowledge) return done({ reply_status: 'failed', reply_reason: 'knowledge_base_missing' });

  const charge = await deps.credits.charge(work.owner, submission.id, 'smart_reply');
  if (charge === 'exhausted') return { result: { reply_reason: 'ai_credits_exhausted' }, creditsExhausted: true };

  const input = draftInput(work, form.knowledgeBaseId, knowledge, soFar);
  const remote = deps.model !== null || (deps.translator !== null && input.language !== input.knowledge.language);
  if (remote && !(await deps.beginRemote(work))) throw new Superseded();
  let draft;
  try {
    draft = await draftReply(input, { model: deps.model, translator: deps.translator, log: deps.log });
  } catch (error) {
    throw new StepFailure('smart_reply', error);
  }

  let result: StepResult;
  if (draft.kind === 'no_answer') {
    await deps.credits.refund(submission.id, 'smart_reply');
    result = { reply_status: 'failed', reply_reason: draft.reason };
  } else {
    result = { reply_status: 'completed', reply_subject: draft.subject, reply_content: draft.body, reply_reason: draft.reason, reply_passages: draft.passages, reply_confidence: draft.confidence };
  }
  const outcome = done(result);
  if (draft.remote) await deps.store.saveSteps(work, { ...soFar, ...result });
  return outcome;
}
