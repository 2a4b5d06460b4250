// Vocabulary bridging: a question worded unlike its answer ("price" against "costs", "closest"
// against "nearest", "money back" against "refund") is answered from the sentence that holds the
// answer, and the bridging does not make a question about something else answerable.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { stemmer } from 'stemmer';
import { SYNONYM_GROUPS } from '../src/knowledge/synonyms.ts';
import { GATES } from '../src/knowledge/answerability.ts';
import { queryTerms } from '../src/knowledge/terms.ts';
import { answered, answerParts, replyPieces } from '../src/replies/offline.ts';

const DATA = path.join(import.meta.dirname, '..', 'scripts', 'data', 'knowledge');
const indexOf = (file: string) => buildIndex(splitPassages(fs.readFileSync(path.join(DATA, file), 'utf8')));
const quoted = (file: string, question: string) => replyPieces(answerParts(indexOf(file), question)).quotes.join('\n');

describe('synonyms', () => {
  it('compares the words of a group, and a phrase, as one term', () => {
    assert.deepEqual([...queryTerms('costs')], [...queryTerms('price')]);
    assert.deepEqual([...queryTerms('fees')], [...queryTerms('price')]);
    assert.deepEqual([...queryTerms('closest')], [...queryTerms('nearest')]);
    assert.deepEqual([...queryTerms('money back')], [...queryTerms('refund')]);
    assert.ok(!queryTerms('money back').has([...queryTerms('money')][0]!), 'the phrase stands for its word, not for its own words');
  });

  it('covers a day of the week by a sentence naming any day, and only the days', () => {
    const index = buildIndex(splitPassages([
      '# Opening hours', 'We are open Tuesday to Saturday, 8:30am to 5pm.', '',
      '# Prices', 'A full groom is £45 and a bath and brush is £30.', '',
      '# Parking', 'There is free parking behind the shop.',
    ].join('\n')));
    const open = answerParts(index, 'Are you open on Mondays?', GATES.draft);
    assert.ok(answered(open));
    assert.equal(replyPieces(open).quotes.join('\n'), 'We are open Tuesday to Saturday, 8:30am to 5pm.');
    const [best] = index.rankSentences('Is parking free on Sundays?', index.passages[2]!);
    assert.ok(best!.coverage < 1, 'a sentence naming no day does not cover the day');
  });

  it('leaves out function words the stop-word list lacks (she, maybe, shall …), not what changes a question (not, without, May, evening)', () => {
    assert.deepEqual([...queryTerms('Can she maybe come, or shall we perhaps wait? Either way, yes, we will.')], ['wait']);
    assert.deepEqual([...queryTerms('Open in May without booking, not in the evening?')], ['open', 'mai', 'without', 'book', 'not', 'even']);
  });

  it('puts each word, by its stem, in one group only', () => {
    const groupOf = new Map<string, number>();
    SYNONYM_GROUPS.forEach((group, i) => {
      for (const word of group) {
        const stem = stemmer(word);
        assert.ok(!groupOf.has(stem) || groupOf.get(stem) === i, `"${word}" is in groups ${groupOf.get(stem)} and ${i}`);
        groupOf.set(stem, i);
      }
    });
  });

  it('reads an amount of money as a price and a clock time as an hour', () => {
    const price = [...queryTerms('price')][0]!;
    const hour = [...queryTerms('hour')][0]!;
    for (const text of ['Sports massage (60 min)\t£55', 'It costs 35 euros.', 'a deposit of €100']) assert.ok(queryTerms(text).has(price), text);
    for (const text of ['Friday: 7:30am to 6pm', 'from 9:30 to 18:30']) assert.ok(queryTerms(text).has(hour), text);
    assert.ok(!queryTerms('We have 12 rooms on 3 floors.').has(price));
    assert.ok(!queryTerms('We have 12 rooms on 3 floors.').has(hour));
  });
});

describe('answers worded unlike their question', () => {
  const cases = [
    { file: 'bike-shop.md', question: 'Can I rent an electric bike, what is the price per day?', answer: 'An electric bike costs €35 per day or €180 per week.' },
    { file: 'clinic.txt', question: 'Can I pay with cash?', answer: 'We do not accept cash.' },
    { file: 'clinic.txt', question: 'How much is a sports massage?', answer: 'Sports massage (60 min)\t£55' },
    { file: 'holiday-rental.txt', question: 'Which airport is closest to the house?', answer: 'The nearest airport is Faro' },
    { file: 'language-school.txt', question: 'If my visa is refused, do I get my money back?', answer: 'If the visa is refused, we refund everything you paid' },
  ];
  for (const { file, question, answer } of cases) {
    it(`"${question}" gets "${answer}"`, () => {
      const reply = quoted(file, question);
      assert.ok(reply.includes(answer), reply);
    });
  }

  it('the same words without the bridge are not enough: a question about what is never mentioned is declined', () => {
    for (const question of ['How much does a tattoo cost?', 'Do you sell skateboards?', 'What is the price of a wedding cake?']) {
      assert.ok(!answered(answerParts(indexOf('bike-shop.md'), question)), question);
    }
  });
});
