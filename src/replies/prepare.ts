// What drafting needs of a submission: its text, language and translation, and the form's knowledge
// base with the language it is written in (detected once per version).
import { detectLanguage } from '../pipeline/language.ts';
import type { StepResult, Work } from '../pipeline/store.ts';
import type { KnowledgeService } from '../knowledge/service.ts';
import type { DraftInput } from './draft.ts';

type KnowledgeIndex = NonNullable<Awaited<ReturnType<KnowledgeService['index']>>>;

const LANGUAGE_SAMPLE_CHARS = 2000;
const CACHE_LIMIT = 1000;
const knowledgeLanguages = new Map<string, string | null>();

function knowledgeLanguage(id: string, knowledge: KnowledgeIndex): string | null {
  const key = `${id}@${knowledge.version}`;
  if (!knowledgeLanguages.has(key)) {
    if (knowledgeLanguages.size >= CACHE_LIMIT) knowledgeLanguages.clear();
    const sample = knowledge.index.passages.map((p) => p.body).join('\n').slice(0, LANGUAGE_SAMPLE_CHARS);
    knowledgeLanguages.set(key, detectLanguage(sample));
  }
  return knowledgeLanguages.get(key) ?? null;
}

/** `soFar`: results of this run's earlier steps, which take precedence over what is stored. */
export function draftInput(work: Work, knowledgeBaseId: string, knowledge: KnowledgeIndex, soFar: StepResult = {}): DraftInput {
  const { submission } = work;
  return {
    formName: work.form.name,
    fields: work.fields,
    data: submission.data,
    translated: soFar.translated_data !== undefined ? soFar.translated_data : submission.stored.translated_data,
    language: soFar.original_language !== undefined ? soFar.original_language : submission.stored.original_language,
    knowledge: { index: knowledge.index, signature: knowledge.signature, language: knowledgeLanguage(knowledgeBaseId, knowledge) },
  };
}
