// Choosing the translation provider, and translating the prose fields of a submission with it.
import type { ChatModel } from '../../ai/chat-model.ts';
import type { Config } from '../../config.ts';
import type { FieldDefinition } from '../../forms/field-schema.ts';
import { submissionText } from '../submission-text.ts';
import { deeplTranslator } from './deepl.ts';
import { libreTranslateTranslator } from './libretranslate.ts';
import { modelTranslator } from './model-translator.ts';
import { expectTranslations, type Translator } from './translator.ts';

export type { Translator } from './translator.ts';
export { deeplTranslator } from './deepl.ts';
export { libreTranslateTranslator } from './libretranslate.ts';
export { modelTranslator } from './model-translator.ts';

/**
 * The configured provider, in this order of preference: LibreTranslate, DeepL, the chat model; null when
 * none is configured. The dedicated services come first: they are cheaper per text and cannot be talked
 * into anything by what they translate. The model's calls keep its own timeout (INTAKE_AI_TIMEOUT_MS).
 */
export function translatorFromConfig(translation: Config['translation'], model: ChatModel | null, fetchImpl: typeof fetch = fetch): Translator | null {
  if (translation.libreTranslate) return libreTranslateTranslator(translation.libreTranslate, translation.timeoutMs, fetchImpl);
  if (translation.deepl) return deeplTranslator(translation.deepl, translation.timeoutMs, fetchImpl);
  if (model) return modelTranslator(model);
  return null;
}

/**
 * { field: translation } for the fields submissionText() selects; other fields are left out. When the
 * source is already the target, the texts come back as they are, without asking the provider.
 */
export async function translateSubmission(
  translator: Translator,
  data: Record<string, unknown>,
  fields: FieldDefinition[],
  target: string,
  source: string | null,
  signal?: AbortSignal,
): Promise<Record<string, string>> {
  const texts = submissionText(data, fields);
  const names = Object.keys(texts);
  if (names.length === 0 || (source !== null && sameLanguage(source, target))) return texts;
  const translated = expectTranslations(translator.name, await translator.translate(Object.values(texts), target, source, signal), names.length);
  return Object.fromEntries(names.map((name, index) => [name, translated[index] as string]));
}

function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
