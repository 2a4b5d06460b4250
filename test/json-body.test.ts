// The one JSON parser every route shares: its depth limit and its refusal of text no database stores
// the same way, checked in one pass over the parsed body (src/http/json-body.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../src/http/errors.ts';
import { MAX_JSON_DEPTH, parseJsonBody } from '../src/http/json-body.ts';

const parse = (text: string) => parseJsonBody(Buffer.from(text, 'utf8'));
const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

function refusal(text: string): AppError {
  try {
    parse(text);
  } catch (error) {
    assert.ok(error instanceof AppError, `an AppError, not ${String(error)}`);
    return error;
  }
  assert.fail(`accepted ${text.slice(0, 80)}`);
}

describe('parseJsonBody', () => {
  it('takes a body nested to the limit and refuses one a level deeper', () => {
    assert.deepEqual(parse(nested(MAX_JSON_DEPTH)), JSON.parse(nested(MAX_JSON_DEPTH)));
    const deeper = refusal(nested(MAX_JSON_DEPTH + 1));
    assert.equal(deeper.status, 400);
    assert.match(deeper.message, /nested more than 32 levels/);
    // Objects count as arrays do; strings and numbers at the bottom add no level.
    const objects = `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}"x"${'}'.repeat(MAX_JSON_DEPTH + 1)}`;
    assert.match(refusal(objects).message, /nested more than/);
    assert.ok(parse(`${'{"a":'.repeat(MAX_JSON_DEPTH)}"x"${'}'.repeat(MAX_JSON_DEPTH)}`));
  });

  it('refuses a hostile nesting without overflowing the stack', () => {
    assert.match(refusal(nested(100_000)).message, /nested more than/);
  });

  it('names every key and string that cannot be stored, by path', () => {
    const error = refusal(JSON.stringify({ ok: 'fine', message: 'a\u0000b', list: ['x', '\ud800'], deep: { 'k\u0000': 1 } }));
    assert.equal(error.code, 'validation_error');
    assert.deepEqual(Object.keys(error.details ?? {}).sort(), ['deep.k\\u0000', 'list[1]', 'message']);
  });

  it('refuses a key that cannot be stored when every value can', () => {
    assert.deepEqual(Object.keys(refusal('{"ok":{"a\\u0000":1}}').details ?? {}), ['ok.a\\u0000']);
  });

  it('reports too deep before unstorable text, wherever each is', () => {
    const both = JSON.stringify({ first: 'a\u0000', later: JSON.parse(nested(MAX_JSON_DEPTH)) });
    assert.match(refusal(both).message, /nested more than/);
  });

  it('passes an ordinary submission through unchanged', () => {
    const body = { name: 'Ada', email: 'ada@example.com', message: 'Hello — 你好 👋', tags: ['a', 'b'], n: 3, extra: { x: null } };
    assert.deepEqual(parse(JSON.stringify(body)), body);
  });
});
