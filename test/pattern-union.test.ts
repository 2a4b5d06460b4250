// A union of patterns (pattern-union.ts) must say "matches" exactly when one of its patterns does, whatever the
// patterns' alternatives, groups, classes and openings; its rewriting must keep every alternative whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { topLevelAlternatives, unionOf, withSharedOpenings } from '../src/pipeline/spam/pattern-union.ts';

describe('pattern unions', () => {
  it('splits a pattern only at its own alternatives, not inside groups, classes or escapes', () => {
    assert.deepEqual(topLevelAlternatives(String.raw`\ba|b(?:c|d)|[|(]x|\|y|(?<!\p{L})z`), [String.raw`\ba`, 'b(?:c|d)', '[|(]x', String.raw`\|y`, String.raw`(?<!\p{L})z`]);
    assert.deepEqual(topLevelAlternatives('abc'), ['abc']);
    assert.deepEqual(topLevelAlternatives(String.raw`[\]|]|q`), [String.raw`[\]|]`, 'q']);
  });

  it('asks a shared opening once for neighbouring alternatives only', () => {
    assert.equal(withSharedOpenings([String.raw`\ba`, String.raw`\bb`, 'c', String.raw`\bd`]), String.raw`\b(?:a|b)|(?:c)|(?:\bd)`);
    assert.equal(withSharedOpenings([String.raw`(?<!\p{L})x`, String.raw`(?<!\p{L})y`]), String.raw`(?<!\p{L})(?:x|y)`);
  });

  const patterns = [
    /\bseo\s(?:services|agency)\b|\bguest\sposts?\b/u,
    /(?<!\p{L})займ\p{L}{0,2}\sбез|\bloans?\b/u,
    /外链|百度首页/u,
    /\b(?:cheap|discount(?:ed)?)\b/u,
    /^(?:please\s)?subscribe[!.]?$/u,
    /[|]\sbar\b/u,
  ];
  const texts = [
    'we offer seo services', 'seo servicesx', 'great guest post here', 'займы без справок', 'xзайм без', 'a loan today', 'loaner car',
    '提供外链服务', 'cheap flights', 'undiscounted', 'please subscribe!', 'please subscribe to us', 'a | bar', 'foobar', '', 'nothing at all',
  ];

  it('matches a text exactly when one of its patterns does', () => {
    const union = unionOf(patterns);
    for (const text of texts) assert.equal(union.test(text), patterns.some((pattern) => pattern.test(text)), text);
  });

  it('refuses patterns it cannot join', () => {
    assert.throws(() => unionOf([/a/iu]), /cannot join/);
    assert.throws(() => unionOf([/(a)\1/u]), /cannot join/);
  });
});
