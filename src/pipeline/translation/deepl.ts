// DeepL API v2: POST {url}/v2/translate with the key in the Authorization header and up to 50
// texts per request (at most 128 KiB of body), answering { translations: [{ text }] } in order.
// 456 (quota used up) is a plain 4xx here: retrying will not help before the quota resets.
import type { Config } from '../../config.ts';
import { isRecord, postJson } from '../provider-http.ts';
import { expectTranslations, inBatches, translateInBatches, type Translator } from './translator.ts';

const PROVIDER = 'deepl';
const MAX_TEXTS_PER_REQUEST = 50;
/** Below DeepL's 128 KiB, leaving room for the rest of the body. */
const MAX_TEXT_BYTES_PER_REQUEST = 120 * 1024;

// DeepL asks for a variant of these targets (plain EN and PT are kept only for backward compatibility).
const TARGET_VARIANTS: Record<string, string> = { en: 'EN-US', pt: 'PT-BR' };
// eld and ISO 639-1 say "no" for Norwegian; DeepL only knows Bokmål.
const RENAMED: Record<string, string> = { no: 'NB' };
// DeepL's documented source languages. Any other detected language is left for DeepL to detect, rather
// than sending a source_lang it refuses (and eld may have mistaken a close neighbour anyway).
const SOURCE_LANGUAGES = new Set([
  'AR', 'BG', 'CS', 'DA', 'DE', 'EL', 'EN', 'ES', 'ET', 'FI', 'FR', 'HU', 'ID', 'IT', 'JA', 'KO', 'LT', 'LV', 'NB', 'NL',
  'PL', 'PT', 'RO', 'RU', 'SK', 'SL', 'SV', 'TR', 'UK', 'ZH',
]);

export function deeplTargetLanguage(code: string): string {
  const lower = code.toLowerCase();
  return TARGET_VARIANTS[lower] ?? RENAMED[lower] ?? lower.toUpperCase();
}

/** DeepL's code for a source language, or undefined to let DeepL detect it. */
export function deeplSourceLanguage(code: string | null): string | undefined {
  if (code === null) return undefined;
  const lower = code.toLowerCase();
  const deepl = RENAMED[lower] ?? lower.toUpperCase();
  return SOURCE_LANGUAGES.has(deepl) ? deepl : undefined;
}

export function deeplTranslator(config: NonNullable<Config['translation']['deepl']>, timeoutMs: number, fetchImpl: typeof fetch = fetch): Translator {
  const translateBatch = async (texts: string[], target: string, source: string | null, signal?: AbortSignal) => {
    const sourceLang = deeplSourceLanguage(source);
    const answer = await postJson({
      provider: PROVIDER,
      url: `${config.url}/v2/translate`,
      headers: { authorization: `DeepL-Auth-Key ${config.apiKey}` },
      body: { text: texts, target_lang: deeplTargetLanguage(target), ...(sourceLang && { source_lang: sourceLang }) },
      timeoutMs,
      signal,
      secrets: [config.apiKey],
      fetchImpl,
    });
    const translations = isRecord(answer) && Array.isArray(answer.translations) ? answer.translations : undefined;
    const translated = translations?.map((item: unknown) => (isRecord(item) ? item.text : undefined));
    return expectTranslations(PROVIDER, translated ?? answer, texts.length);
  };

  return {
    name: PROVIDER,
    async translate(texts, target, source, signal) {
      const batches = inBatches(texts, MAX_TEXTS_PER_REQUEST, MAX_TEXT_BYTES_PER_REQUEST, (text) => Buffer.byteLength(JSON.stringify(text)));
      return translateInBatches(batches, (batch) => translateBatch(batch, target, source, signal));
    },
  };
}
