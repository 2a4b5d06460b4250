// One JSON parser for every route: strict UTF-8 (invalid bytes are refused, not silently replaced),
// no prototype poisoning (`__proto__` and `constructor.prototype` keys are refused), and no text
// that a database would store differently or refuse (NUL, unpaired surrogates; storable-text.ts).
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { fail } from './errors.ts';
import { unstorableText } from './storable-text.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Deeper values serve no form and would later overflow the stack of recursive code (JSON.stringify). */
export const MAX_JSON_DEPTH = 32;

function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
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
  if (deeperThan(value, MAX_JSON_DEPTH)) {
    throw fail.invalidBody(`The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  const unstorable = unstorableText(value);
  if (unstorable) throw fail.validation(unstorable, 'The request body contains text that cannot be stored (NUL characters or unpaired surrogates).');
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
