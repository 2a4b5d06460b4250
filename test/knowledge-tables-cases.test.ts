// Issue 36, sixth round: a Markdown table's header row, "quoted on request" as a price, "how soon"
// as a duration, and the asker's case quoted beside the answer. Each rule with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askedTypes, statesAnswer } from '../src/knowledge/answer-types.ts';
import { GATES } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');

describe('a Markdown table read with its header row', () => {
  const grooming = kb(
    '## Prices', '',
    '| Service | Small dog | Large dog |',
    '|---|---|---|',
    '| Bath and brush | £25 | £35 |',
    '| Full groom | £40 | £60 |', '',
    '## Hours', '', 'We are open Tuesday to Saturday.',
  );

  it('a row covers the words of its column names, and is quoted under them', () => {
    const reply = quotes(grooming, 'how much is a full groom for a large dog?');
    assert.ok(reply.includes('| Full groom | £40 | £60 |'), reply);
    assert.ok(reply.includes('| Service | Small dog | Large dog |'), reply);
    const [best] = grooming.rankSentences('full groom large dog', grooming.passages[0]!);
    assert.equal(best!.sentence.text, '| Full groom | £40 | £60 |');
    assert.equal(best!.coverage, 1);
  });

  it('near miss: the header row is never the answer itself', () => {
    const ranked = grooming.rankSentences('price for a small dog', grooming.passages[0]!);
    assert.ok(ranked.every((m) => !m.sentence.text.startsWith('| Service')), ranked.map((m) => m.sentence.text).join(' / '));
  });

  it('near miss: pipe rows without a separator line have no header, and the first row stays an answer', () => {
    const plain = kb('## Prices', '', '| Bath and brush | £25 |', '| Full groom | £40 |', '', '## Hours', '', 'We are open Tuesday to Saturday.');
    const [best] = plain.rankSentences('bath and brush', plain.passages[0]!);
    assert.equal(best!.sentence.text, '| Bath and brush | £25 |');
    assert.equal(best!.sentence.header, undefined);
  });
});

describe('"quoted on request" states the price', () => {
  it('answers "how much" with a sentence saying the price is given on request', () => {
    assert.ok(statesAnswer('price', 'Vans and motorhomes are quoted on request.'));
    assert.ok(statesAnswer('price', 'Large events: price on application.'));
  });
  it('near miss: "on request" with no price word or quote states no price', () => {
    assert.ok(!statesAnswer('price', 'Conservatory roofs are cleaned on request.'));
  });
});

describe('"how soon" asks for a duration', () => {
  it('"how soon" wants how long until, which "within a week" and "the same day" state', () => {
    assert.deepEqual(askedTypes('How soon can you come and give a quote?'), ['duration']);
    assert.ok(statesAnswer('duration', 'Most quotes are done within a week of your call.'));
    assert.ok(statesAnswer('duration', 'Orders placed by noon are delivered the same day.'));
  });
  it('near miss: "before" alone says when, not how soon', () => {
    assert.ok(!statesAnswer('duration', 'We come out to see the tree before we give one.'));
  });
});

describe('the asker\'s case, quoted beside the answer', () => {
  const school = kb(
    '## Before you start', '',
    'Before your first day you take a short online placement test, so that you join the right class. Beginners with no German at all do not need to take the test.', '',
    '## Prices', '', 'A four-week course costs €240.',
  );

  it('a sentence of the passage covering the case the asker states, and the question, is quoted too', () => {
    const reply = quotes(school, 'Do I have to do a placement test? I\'m a complete beginner.');
    assert.ok(reply.includes('you take a short online placement test'), reply);
    assert.ok(reply.includes('Beginners with no German at all do not need to take the test.'), reply);
  });

  it('near miss: a case the passage does not treat adds nothing', () => {
    const reply = quotes(school, 'Do I have to do a placement test? I\'m moving to Berlin.');
    assert.ok(reply.includes('you take a short online placement test'), reply);
    assert.ok(!reply.includes('Beginners'), reply);
  });
});

describe('a passage that is only a title', () => {
  const policy = kb(
    'Returns and Refunds Policy – Stride Footwear', '',
    '1. You can return unworn shoes within 30 days.',
    '2. Refunds are made to your card within 5 working days of your parcel reaching us.',
  );

  it('is neither searched nor quoted: the question is answered from the text under it', () => {
    assert.equal(policy.passages.length, 2);
    assert.ok(policy.search('when will i get my refund').every((m) => m.passage.position !== 0));
    assert.ok(quotes(policy, 'When will i get my refund??').includes('Refunds are made to your card within 5 working days'));
  });

  it('near miss: a one-line passage that states something stays an answer', () => {
    const shop = kb('We are closed on Sundays.', '', 'Our shop sells shoes and boots for all ages, made in Northampton.');
    assert.ok(shop.search('are you closed on sundays').some((m) => m.passage.position === 0));
    assert.ok(quotes(shop, 'are you closed on sundays?').includes('We are closed on Sundays.'));
  });
});
