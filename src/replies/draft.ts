// Drafting a smart reply for one submission: each question of it answered from the form's
// knowledge base (offline.ts), then the model's reply from the same passages when one is configured
// (falling back to the offline reply when it fails), and the reply in the submitter's language when
// a translator can make it so.
import type { ChatModel } from '../ai/chat-model.ts';
import type { FieldDefinition } from '../forms/field-schema.ts';
import { GATES } from '../knowledge/answerability.ts';
import type { PassageIndex } from '../knowledge/retrieval.ts';
import { submissionText } from '../pipeline/language.ts';
import type { Translator } from '../pipeline/translation/index.ts';
import { composeReply, defaultSubject, isNameField, submitterName } from './compose.ts';
import { modelReply } from './model-draft.ts';
import { answered, answerParts, modelPassages, replyPieces, type Answer } from './offline.ts';
import { replyConfidence, type ReplyConfidence } from './evidence.ts';
import { declineReason, NO_ANSWER, partialReason } from './reasons.ts';

export interface DraftInput {
  formName: string;
  fields: FieldDefinition[];
  data: Record<string, unknown>;
  /** The submission's prose in the owner's language, when the pipeline translated it. */
  translated: Record<string, string> | null;
  /** The submission's language (ISO 639-1), when detected. */
  language: string | null;
  knowledge: { index: PassageIndex; signature: string | null; language: string | null };
}

export interface DraftDeps {
  model: ChatModel | null;
  translator: Translator | null;
  log?: { info(object: object, message: string): void };
}

export type Draft =
  /** `confidence`: how sure an offline reply is and what it quotes; null for a model's reply. */
  | { kind: 'reply'; subject: string; body: string; passages: number[]; reason: string | null; remote: boolean; confidence: ReplyConfidence | null }
  /** `reason`: why, with the passage that came closest, for the owner to improve the knowledge base. */
  | { kind: 'no_answer'; reason: string; remote: boolean };

/**
 * The text a reply answers: the prose fields but the submitter's name, in the knowledge base's
 * language when a translation into it exists.
 */
export function questionOf(input: Pick<DraftInput, 'data' | 'fields' | 'translated' | 'language' | 'knowledge'>): string {
  const names = new Set(input.fields.filter(isNameField).map((field) => field.name));
  const useTranslation = input.translated && input.language !== input.knowledge.language;
  const texts = useTranslation ? input.translated! : submissionText(input.data, input.fields);
  return Object.entries(texts).filter(([field]) => !names.has(field)).map(([, text]) => text).join('\n\n');
}

function differentLanguage(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.toLowerCase() !== b.toLowerCase();
}

async function offline(input: DraftInput, answer: Answer, name: string | null, deps: DraftDeps): Promise<Draft> {
  if (!answered(answer)) return { kind: 'no_answer', reason: declineReason(answer), remote: false };
  const { quotes, unanswered } = replyPieces(answer);
  const reply = composeReply({ name, quotes, unanswered, signature: input.knowledge.signature, formName: input.formName });
  const passages = answer.passages.map((p) => p.position);
  const partial = unanswered.length > 0 ? partialReason(answer) : null;
  const confidence = replyConfidence(input.knowledge.index, answer);
  if (!differentLanguage(input.language, input.knowledge.language)) {
    return { kind: 'reply', subject: reply.subject, body: reply.body, passages, reason: partial, remote: false, confidence };
  }
  if (!deps.translator) {
    const reason = partial ?? `reply_not_translated: written in the knowledge base's language (${input.knowledge.language}); no translation provider is configured`;
    return { kind: 'reply', subject: reply.subject, body: reply.body, passages, reason, remote: false, confidence };
  }
  const [body] = await deps.translator.translate([reply.body], input.language!, input.knowledge.language);
  return { kind: 'reply', subject: reply.subject, body: body ?? reply.body, passages, reason: partial, remote: true, confidence };
}

/** Throws what the translator throws (ProviderError): the caller retries the step. */
export async function draftReply(input: DraftInput, deps: DraftDeps): Promise<Draft> {
  const question = questionOf(input);
  if (question.trim() === '') return { kind: 'no_answer', reason: `${NO_ANSWER}: the submission has no text to answer`, remote: false };
  const name = submitterName(input.data, input.fields);
  // Drafted under the draft gate; in `auto` mode a draft under the auto gate is held (tasks.ts).
  const answer = answerParts(input.knowledge.index, question, GATES.draft);
  const passages = modelPassages(input.knowledge.index, answer, question);
  if (!deps.model || passages.length === 0) return offline(input, answer, name, deps);

  const written = await modelReply(deps.model, {
    formName: input.formName, language: input.language ?? input.knowledge.language, question, name, passages,
  });
  if (written.kind === 'refused') return { kind: 'no_answer', reason: declineReason(answer, written.why), remote: true };
  if (written.kind === 'failed') {
    deps.log?.info({ why: written.why }, 'model reply unusable; replying offline');
    const fallback = await offline(input, answer, name, deps);
    return { ...fallback, remote: true };
  }
  const signature = input.knowledge.signature?.trim();
  const body = signature && !written.body.includes(signature) ? `${written.body}\n\n${signature}` : written.body;
  return { kind: 'reply', subject: written.subject ?? defaultSubject(input.formName), body, passages: written.passages, reason: null, remote: true, confidence: null };
}
