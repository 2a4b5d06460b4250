// Issue 36, fifth round: light verbs the knowledge base never uses, French function words, and an
// unknown qualifier only against a sentence that names its own kind. Each rule with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { queryTerms } from '../src/knowledge/terms.ts';
import { answered, answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');

const phones = kb(
  '# Payment', 'We take card, Apple Pay and cash.', '',
  '# Privacy', 'We never ask for your passcode for a screen or battery repair.', '',
  '# Collection', 'We keep unclaimed phones for 90 days.',
);

describe('light verbs', () => {
  it('a light verb the knowledge base never uses does not count against a sentence', () => {
    const reply = quotes(phones, 'do i have to give u my passcode');
    assert.ok(reply.includes('We never ask for your passcode'), reply);
    const [best] = phones.rankSentences('do i have to give u my passcode', phones.passages[1]!);
    assert.equal(best!.coverage, 1);
  });
  it('near miss: the words that are not light verbs still count', () => {
    assert.ok(!answered(answerParts(phones, 'do i have to give u my bank details', GATES.draft)));
  });
  it('near miss: a light verb the knowledge base uses is weighed like any word', () => {
    const [best] = phones.rankSentences('can you keep my passcode', phones.passages[1]!);
    assert.ok(best!.coverage < 1, String(best!.coverage));
  });
});

describe('French function words', () => {
  const menage = kb(
    'Zone', 'Nous faisons le ménage à Bordeaux et dans les communes voisines : Mérignac, Pessac, Talence.', '',
    'Tarifs', 'Le ménage coûte 25 € de l\'heure, avec un minimum de deux heures par passage.', '',
    'Annulation', 'Une annulation la veille est facturée une heure.',
  );
  it('"si", "jusqu\'à", "quelque chose", "vous allez" are left out', () => {
    assert.equal(menage.language, 'fr');
    assert.deepEqual([...queryTerms("si jusqu'à quelque chose vous allez je dois", 'fr')], []);
    assert.ok(quotes(menage, "vous allez jusqu'à Pessac ?").includes('Pessac'));
  });
  it('near miss: a town the knowledge base does not name is declined', () => {
    assert.ok(!answered(answerParts(menage, "vous allez jusqu'à Toulouse ?", GATES.draft)));
  });
});

describe('an unknown qualifier against a sentence naming its own kind', () => {
  const kinds = kb('# Prices', '- iPhone screen replacement: from £69', '- Battery replacement: £45', '', '# Payment', 'We take card and cash.');
  const plain = kb('# Prices', '- Screen replacement: from £69', '- Battery replacement: £45', '', '# Payment', 'We take card and cash.');
  it('"a laptop screen" against "iPhone screen replacement" is a qualifier', () => {
    const [part] = answerParts(kinds, 'how much for a laptop screen?', GATES.draft).parts;
    assert.equal(kinds.unknownQualifier(part!.question, part!.best!.sentence), 'laptop');
  });
  it('near miss: against "Screen replacement", which names no kind, it is not', () => {
    const [part] = answerParts(plain, 'how much for a laptop screen?', GATES.draft).parts;
    assert.equal(part!.best!.sentence.text, '- Screen replacement: from £69');
    assert.equal(plain.unknownQualifier(part!.question, part!.best!.sentence), null);
  });
  it('near miss: the kind the sentence names, asked, is not a qualifier', () => {
    const [part] = answerParts(kinds, 'how much for an iphone screen?', GATES.draft).parts;
    assert.equal(kinds.unknownQualifier(part!.question, part!.best!.sentence), null);
  });
});

describe('a part of the day', () => {
  const walks = kb(
    '# Cancelling', 'Cancel a walk by 8am on the day and you are not charged.', '',
    '# Storage', 'We keep spare leads and towels for every dog.', '',
    '# Area', 'We walk dogs in Roundhay and Oakwood.',
  );
  it('"in the morning" is covered by a sentence stating a clock time', () => {
    const [best] = walks.rankSentences('can i cancel in the morning', walks.passages[0]!);
    assert.equal(best!.coverage, 1);
    assert.ok(quotes(walks, 'can i cancel in the morning').includes('by 8am'));
  });
  it('near miss: a sentence that states no clock time does not cover it', () => {
    const [best] = walks.rankSentences('do you walk in the morning', walks.passages[2]!);
    assert.ok(best!.coverage < 1, String(best!.coverage));
  });
});

describe('light nouns (issue 36, sixth round)', () => {
  const groomer = kb(
    '# Cancelling', 'Please give at least 48 hours notice if you need to cancel an appointment.', '',
    '# Prices', 'A full groom is £40 for a small dog.',
  );
  it('"policy" the knowledge base never uses does not count against a sentence', () => {
    const [best] = groomer.rankSentences("What's your cancelation policy?", groomer.passages[0]!);
    assert.equal(best!.coverage, 1);
    assert.ok(quotes(groomer, "What's your cancelation policy?").includes('48 hours notice'));
  });
  it('near miss: a knowledge base that uses "policy" weighs it', () => {
    const shop = kb('# Privacy', 'Our privacy policy is on the website.', '', '# Cancelling', 'Please give 48 hours notice to cancel.');
    const [best] = shop.rankSentences('what is your cancellation policy?', shop.passages[1]!);
    assert.ok(best!.coverage < 1, String(best!.coverage));
  });
});
