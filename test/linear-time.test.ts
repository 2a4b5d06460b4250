// Input that makes backtracking regular expressions take exponential or quadratic time must be
// handled in linear time everywhere submitter text is examined. A catastrophic case takes hours
// (or, quadratic, many seconds) on the inputs below; linear code takes milliseconds. The bound
// is set far above the linear cost so that only a super-linear regression can trip it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFieldsSchema } from '../src/forms/field-schema.ts';
import { isEmailAddress } from '../src/forms/email-address.ts';
import { PATTERN_INPUT_LIMIT } from '../src/forms/pattern-dialect.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { askedTypes, statesAnswer } from '../src/knowledge/answer-types.ts';
import { withoutGreetings } from '../src/knowledge/greetings.ts';
import { answerParts } from '../src/replies/offline.ts';
import { questionParts } from '../src/replies/question-parts.ts';
import { detectSubmissionLanguage } from '../src/pipeline/language.ts';
import { compileValidator } from '../src/submissions/validator.ts';

const GENEROUS_BOUND_MS = 1_000;
/**
 * For the knowledge-base inputs whose linear cost is itself about a second (indexing 20,000 passages
 * took 1.0 to 1.8 s on a loaded host, and 3.6 s once at load average 13, where a 3 s bound failed).
 * A quadratic regex on their 200,000 characters (4e10 steps) takes tens of seconds, so this still
 * trips on that and not on a busy host.
 */
const HEAVY_BOUND_MS = 10_000;

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

function validatorWithPattern(pattern: string) {
  const parsed = parseFieldsSchema({ fields: [{ name: 'v', type: 'string', rules: [{ op: 'pattern', value: pattern }] }] });
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return compileValidator(parsed.schema);
}

describe('owner patterns run in linear time', () => {
  const catastrophic = [
    { pattern: '^(a+)+$', attack: `${'a'.repeat(31)}!` },
    { pattern: '^(a|aa)+$', attack: `${'a'.repeat(40)}!` },
    { pattern: '^(\\w+\\s?)*$', attack: `${'word '.repeat(12)}!` },
    { pattern: '^(.*a){12}$', attack: `${'a'.repeat(40)}!` },
  ];
  for (const { pattern, attack } of catastrophic) {
    it(`answers ${pattern} at once, on the classic attack and at the length budget`, () => {
      const validate = validatorWithPattern(pattern);
      for (const value of [attack, attack.slice(0, -1).padEnd(PATTERN_INPUT_LIMIT - 1, attack[0]) + '!']) {
        const { value: result, ms } = timed(() => validate({ v: value }));
        assert.equal(result.ok, false);
        assert.ok(ms < GENEROUS_BOUND_MS, `${pattern} took ${ms.toFixed(0)} ms on ${value.length} characters`);
      }
    });
  }

  it('still matches what the pattern describes', () => {
    const validate = validatorWithPattern('^(a+)+$');
    assert.equal(validate({ v: 'aaaa' }).ok, true);
    assert.equal(validatorWithPattern('^\\u00e9+$')({ v: 'ééé' }).ok, true);
  });

  it('refuses values over the length budget with a message that says so', () => {
    const validate = validatorWithPattern('^a+$');
    assert.equal(validate({ v: 'a'.repeat(PATTERN_INPUT_LIMIT) }).ok, true);
    const result = validate({ v: 'a'.repeat(PATTERN_INPUT_LIMIT + 1) });
    assert.ok(!result.ok);
    assert.ok(result.details.v?.includes(`must be at most ${PATTERN_INPUT_LIMIT} characters`), JSON.stringify(result.details));
  });
});

describe('email addresses are checked in linear time', () => {
  it('accepts ordinary addresses and refuses malformed ones', () => {
    for (const good of ['ada@example.com', 'first.last+tag@mail.example.co.uk', "o'brien@x-y.io", 'A@B.CO']) assert.ok(isEmailAddress(good), good);
    for (const bad of ['', 'ada', 'ada@', '@example.com', 'ada@example', 'a..b@example.com', '.a@example.com', 'a@-x.com', 'a@x-.com', 'a@b@c.com', 'a b@c.com', `${'a'.repeat(65)}@x.com`, `a@${'b'.repeat(64)}.com`]) {
      assert.ok(!isEmailAddress(bad), bad);
    }
  });

  it('answers at once on values built to make the usual patterns backtrack', () => {
    const attacks = [`a@${'a'.repeat(60_000)}`, `a@${'a.'.repeat(30_000)}!`, `${'a.'.repeat(30_000)}@x.com`, `${'-'.repeat(60_000)}`];
    const validate = compileValidator({ fields: [{ name: 'mail', type: 'email', required: true, rules: [] }] });
    for (const attack of attacks) {
      const { value, ms } = timed(() => validate({ mail: attack }));
      assert.equal(value.ok, false);
      assert.ok(ms < GENEROUS_BOUND_MS, `took ${ms.toFixed(0)} ms`);
    }
  });
});

describe('language detection examines text in linear time', () => {
  const fields = [{ name: 'message', type: 'string' as const, required: false, rules: [] }];
  const attacks = [
    `a@${'b'.repeat(60_000)}`,
    'x'.repeat(60_000),
    `+${' '.repeat(2_000)}x`,
    `${'1 '.repeat(1_000)}${' '.repeat(1_000)}!`,
    `www.${'a-'.repeat(1_000)}`,
    `a.${'b.'.repeat(1_000)}`,
  ];
  for (const [index, attack] of attacks.entries()) {
    it(`answers at once on hostile text #${index + 1}`, () => {
      const { ms } = timed(() => detectSubmissionLanguage({ message: attack }, fields));
      assert.ok(ms < GENEROUS_BOUND_MS, `took ${ms.toFixed(0)} ms`);
    });
  }
});

describe('knowledge-base text is split in linear time', () => {
  const attacks = [
    `Q: ${' '.repeat(200_000)}\r`,
    `A: ${' '.repeat(200_000)}\u2028`,
    `# ${'\t'.repeat(200_000)}\r`,
    `${'#'.repeat(200_000)}`,
    `\n${' '.repeat(200_000)}x\n`,
  ];
  for (const [index, attack] of attacks.entries()) {
    it(`answers at once on hostile content #${index + 1}`, () => {
      const { ms } = timed(() => splitPassages(attack));
      assert.ok(ms < GENEROUS_BOUND_MS, `took ${ms.toFixed(0)} ms`);
    });
  }
});

describe('smart replies read hostile knowledge bases and messages in linear time', () => {
  const kbAttacks = [
    `${'. '.repeat(100_000)}`,
    `${'."'.repeat(100_000)} X`,
    `${'a.'.repeat(100_000)}`,
    `${'- x\n'.repeat(50_000)}`,
    `${'Title\nText.\n\n'.repeat(20_000)}`,
    `${'x'.repeat(200_000)}`,
  ];
  for (const [n, attack] of kbAttacks.entries()) {
    it(`indexes hostile knowledge-base content #${n + 1} at once`, () => {
      const { ms } = timed(() => buildIndex(splitPassages(attack)));
      assert.ok(ms < HEAVY_BOUND_MS, `took ${ms.toFixed(0)} ms`);
    });
  }

  const index = buildIndex(splitPassages('## Rentals\n\nAn electric bike costs €35 per day. We rent city bikes too.\n\n## Hours\n\nWe open at 9.'));
  const messages = [
    'a? '.repeat(30_000),
    'and how do you? '.repeat(10_000),
    `${'abcdefghijklmnopqrstuvwxyz'.repeat(2_000)}?`,
    'St. '.repeat(30_000),
    `${'x'.repeat(100_000)} electric bike?`,
  ];
  for (const [n, message] of messages.entries()) {
    it(`answers hostile message #${n + 1} at once, as at most six questions`, () => {
      const { value, ms } = timed(() => answerParts(index, message));
      assert.ok(ms < GENEROUS_BOUND_MS, `took ${ms.toFixed(0)} ms`);
      assert.ok(value.parts.length <= 6 && questionParts(message).length <= 6);
    });
  }

  const typed = [
    'how much '.repeat(20_000),
    'what what what '.repeat(10_000) + 'cost',
    '1 2 3 4 '.repeat(20_000),
    'good '.repeat(40_000) + 'evening',
    `${'in '.repeat(40_000)}Ghent`,
  ];
  it('answers a question for a kind of answer from a passage of many sentences at once', () => {
    const long = buildIndex(splitPassages(`## Lessons\n\n${'A lesson is good. '.repeat(20_000)}`));
    const { ms } = timed(() => answerParts(long, 'How long is a lesson?'));
    assert.ok(ms < HEAVY_BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });
  for (const [n, text] of typed.entries()) {
    it(`reads the kind of answer asked and stated in hostile text #${n + 1} at once`, () => {
      const { ms } = timed(() => {
        askedTypes(text);
        for (const type of ['price', 'duration', 'time', 'place', 'number', 'frequency', 'distance'] as const) statesAnswer(type, text);
        withoutGreetings(text);
        answerParts(index, text);
      });
      assert.ok(ms < GENEROUS_BOUND_MS, `took ${ms.toFixed(0)} ms`);
    });
  }
});
