// Text that JSON and URLs can carry but the databases cannot store the same way: PostgreSQL's
// text and jsonb refuse NUL, and lone UTF-16 surrogates are not Unicode. Intake refuses both, on
// every engine and every route, with a 400 that names where they are, rather than storing
// something other than what was sent (or, on PostgreSQL, failing with a 500).
import type { FieldErrors } from './errors.ts';

const NUL_MESSAGE = 'must not contain NUL characters (\\u0000)';
const SURROGATE_MESSAGE = 'contains an unpaired UTF-16 surrogate, which is not valid Unicode text';

/** Why a string cannot be stored, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (!text.isWellFormed()) return SURROGATE_MESSAGE;
  return undefined;
}

/** A path safe to echo back: the offending characters themselves are shown escaped. */
function printable(path: string): string {
  return path.toWellFormed().replaceAll('\u0000', '\\u0000').replaceAll('\ufffd', '\\ufffd');
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/** Every unstorable key or string in a parsed JSON value, by path (`message`, `fields[0].name`). */
export function unstorableText(value: unknown, limit = 20): FieldErrors | undefined {
  const found = new Map<string, string[]>();
  const note = (path: string, problem: string | undefined) => {
    if (problem !== undefined && found.size < limit) found.set(printable(path) || 'body', [problem]);
  };
  // Breadth first, so problems are listed in the order a reader meets them.
  const queue: Array<[unknown, string]> = [[value, '']];
  for (let next = 0; next < queue.length && found.size < limit; next++) {
    const [current, path] = queue[next]!;
    if (typeof current === 'string') note(path, textProblem(current));
    else if (Array.isArray(current)) current.forEach((item, index) => queue.push([item, childPath(path, index)]));
    else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        note(childPath(path, key), textProblem(key));
        queue.push([item, childPath(path, key)]);
      }
    }
  }
  return found.size > 0 ? Object.fromEntries(found) : undefined;
}

/**
 * Why a request URL's path or query cannot be taken, or undefined. Percent-escapes that decode to
 * NUL or to bytes that are not UTF-8 (a lone surrogate among them) would otherwise reach a query.
 */
export function urlProblem(url: string): string | undefined {
  if (!url.includes('%')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    return 'The URL contains a percent-escape that is not valid UTF-8.';
  }
  return decoded.includes('\u0000') ? 'The URL contains a NUL character (%00).' : undefined;
}
