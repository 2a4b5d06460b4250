// What the pipeline needs of a translation service, and the checks every provider shares.
import { ProviderError } from '../provider-error.ts';

export interface Translator {
  /** 'libretranslate', 'deepl' or 'model'; errors name the same provider. */
  readonly name: string;
  /** Translates each text into `target` (ISO 639-1). `source` may be null (auto). Same order and length as `texts`. */
  translate(texts: string[], target: string, source: string | null, signal?: AbortSignal): Promise<string[]>;
}

/**
 * Consecutive groups of texts, each within `maxCount` texts and `maxSize` (as measured by `size`),
 * so every group fits one request. A text bigger than `maxSize` on its own still gets a group:
 * the provider's own refusal then names the problem.
 */
export function inBatches(texts: string[], maxCount: number, maxSize: number, size: (text: string) => number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let currentSize = 0;
  for (const text of texts) {
    const textSize = size(text);
    if (current.length > 0 && (current.length >= maxCount || currentSize + textSize > maxSize)) {
      batches.push(current);
      current = [];
      currentSize = 0;
    }
    current.push(text);
    currentSize += textSize;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The answer's translations, when it holds exactly one string per text sent. */
export function expectTranslations(provider: string, value: unknown, expected: number): string[] {
  if (Array.isArray(value) && value.length === expected && value.every((item) => typeof item === 'string')) return value;
  const shape = Array.isArray(value) ? `${value.length} items` : typeof value;
  throw new ProviderError(provider, `expected ${expected} translated texts, got ${shape}`, { transient: false });
}

/** One batch after another, so a submission never bursts into the provider's rate limit by itself. */
export async function translateInBatches(
  batches: string[][],
  translateBatch: (batch: string[]) => Promise<string[]>,
): Promise<string[]> {
  const results: string[] = [];
  for (const batch of batches) results.push(...(await translateBatch(batch)));
  return results;
}
