// Owner `pattern` rules are compiled with RE2 (the re2js port): matching takes time linear in the
// input whatever the pattern, so no owner's pattern and no submitter's value can stall the server.
// The dialect is RE2's (as in Go): no lookaround, no backreferences; constructs RE2 lacks are
// refused when the schema is saved, with the construct named. re2js (257 KB of source) is loaded by
// the first pattern compiled, synchronously (its CommonJS build), so a process whose forms have no
// pattern rule never holds it (docs/memory.md).
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import type { RegExpEngine } from 'ajv/dist/types/index.js';

/** Longer values fail a pattern rule outright: even linear matching should not scan unbounded text. */
export const PATTERN_INPUT_LIMIT = 10_000;

let re2js: typeof RE2JS | undefined;

function loadRe2js(): typeof RE2JS {
  return (re2js ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JS }).RE2JS);
}

export type CompiledPattern = { ok: true; test: (value: string) => boolean } | { ok: false; reason: string };

export function compilePattern(pattern: string): CompiledPattern {
  const engine = loadRe2js();
  try {
    const compiled = engine.compile(withRe2Escapes(pattern));
    return { ok: true, test: (value) => value.length <= PATTERN_INPUT_LIMIT && compiled.test(value) };
  } catch (error) {
    // re2js names the construct it refused, e.g. "invalid or unsupported Perl syntax: `(?=`".
    const message = (error as Error).message.replace(/^error parsing regexp: /, '');
    return { ok: false, reason: `${message} (patterns use the RE2 dialect: no lookaround or backreferences)` };
  }
}

/** An Ajv regular-expression engine over RE2, so the `pattern` keyword never backtracks. */
export const re2Engine: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = compilePattern(pattern);
    // Owner patterns are checked when saved, so a refusal here is a bug in our own schema translation.
    if (!compiled.ok) throw new Error(`pattern not accepted by RE2: ${compiled.reason}`);
    // Ajv caches compiled patterns under toString(): it must differ per pattern, as a RegExp's does.
    return { test: compiled.test, toString: () => `re2:${pattern}` };
  },
  { code: 're2js' },
);

/**
 * JavaScript's `\uHHHH` and `\u{H…}` escapes, which people write out of habit, as RE2's `\x{H…}`.
 * A backslash that is itself escaped (`\\u`) is left alone: escapes are read left to right.
 */
function withRe2Escapes(pattern: string): string {
  let result = '';
  for (let i = 0; i < pattern.length; i++) {
    const character = pattern[i];
    if (character !== '\\') {
      result += character;
      continue;
    }
    const escape = /^u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(pattern.slice(i + 1, i + 11));
    if (escape) {
      result += `\\x{${escape[1] ?? escape[2]}}`;
      i += escape[0].length;
    } else {
      result += pattern.slice(i, i + 2);
      i += 1;
    }
  }
  return result;
}
