// One JSON parser for every route: strict UTF-8 (invalid bytes are refused, not silently replaced),
// no prototype poisoning (`__proto__` and `constructor.prototype` keys are refused), and no text
// that a database would store differently or refuse (NUL, unpaired surrogates; storable-text.ts).
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { fail } from './errors.ts';
import { textProblem, unstorableText } from './storable-text.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Deeper values serve no form and would later overflow the stack of recursive code (JSON.stringify). */
export const MAX_JSON_DEPTH = 32;

/**
 * One pass over a parsed body, allocating nothing: 'deep' when an object or array lies deeper than
 * MAX_JSON_DEPTH (which wins, whatever else is found), 'unstorable' when a key or string cannot be
 * stored, else undefined. The recursion stops at the depth limit, so a hostile nesting cannot
 * overflow the stack. Only a body with a problem pays for the paths that name it (unstorableText).
 */
function scan(value: unknown, depth: number): 'deep' | 'unstorable' | undefined {
  if (typeof value === 'string') return textProblem(value) === undefined ? undefined : 'unstorable';
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_JSON_DEPTH) return 'deep';
  let found: 'unstorable' | undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = scan(item, depth + 1);
      if (problem === 'deep') return problem;
      found ??= problem;
    }
    return found;
  }
  // A parsed body's objects are plain (prototype keys are refused by the parser); own keys only all the same.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (textProblem(key) !== undefined) found = 'unstorable';
    const problem = scan((value as Record<string, unknown>)[key], depth + 1);
    if (problem === 'deep') return problem;
    found ??= problem;
  }
  return found;
}

export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) throw fail.invalidBody('The request body is empty; send a JSON object.');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw fail.malformedJson('The request body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype|__proto__|constructor/i.test(error.message)) {
      throw fail.malformedJson('The request body uses a forbidden key (__proto__ or constructor.prototype).');
    }
    throw fail.malformedJson(`The request body is not valid JSON: ${(error as Error).message}`);
  }
  const problem = scan(value, 1);
  if (problem === 'deep') {
    throw fail.invalidBody(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  if (problem === 'unstorable') {
    throw fail.validation(unstorableText(value) ?? {}, 'The request body contains text that cannot be stored (NUL characters or unpaired surrogates).');
  }
  return value;
}

export function registerJsonParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
