// A LibreTranslate server (self-hosted or libretranslate.com): POST /translate with `q` as an array
// answers `translatedText` as an array in the same order. It takes ISO 639-1 codes and "auto".
import type { Config } from '../../config.ts';
import { ProviderError } from '../provider-error.ts';
import { isRecord, postJson } from '../provider-http.ts';
import { expectTranslations, type Translator } from './translator.ts';

const PROVIDER = 'libretranslate';

export function libreTranslateTranslator(
  config: NonNullable<Config['translation']['libreTranslate']>,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): Translator {
  return {
    name: PROVIDER,
    async translate(texts, target, source, signal) {
      if (texts.length === 0) return [];
      try {
        return await request(texts, target, source, signal);
      } catch (error) {
        // A server started with only some languages refuses a source it lacks (400); its own
        // detection then picks among those it has, which beats failing the submission.
        if (source !== null && error instanceof ProviderError && error.status === 400) return request(texts, target, null, signal);
        throw error;
      }
    },
  };

  async function request(texts: string[], target: string, source: string | null, signal?: AbortSignal): Promise<string[]> {
    const answer = await postJson({
      provider: PROVIDER,
      url: `${config.url}/translate`,
      body: {
        q: texts,
        source: source ?? 'auto',
        target,
        format: 'text',
        // LibreTranslate reads its key from the body; a server without keys ignores it.
        ...(config.apiKey && { api_key: config.apiKey }),
      },
      timeoutMs,
      signal,
      secrets: [config.apiKey],
      fetchImpl,
    });
    const translated = isRecord(answer) ? answer.translatedText : undefined;
    // A single text may come back as a plain string, as for a string `q`.
    return expectTranslations(PROVIDER, typeof translated === 'string' ? [translated] : translated, texts.length);
  }
}
