// The matching rules of smart replies added for issue 36: French, numbers as words, the asker's own
// words, greetings and framing, questions of kind words only. Each with a near miss that must still
// be declined or kept apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { frenchStem, languageOf } from '../src/knowledge/languages.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { askerTerms } from '../src/knowledge/asker-terms.ts';
import { queryTerms } from '../src/knowledge/terms.ts';
import { answered, answerParts, replyPieces } from '../src/replies/offline.ts';
import { questionParts } from '../src/replies/question-parts.ts';

const GARAGE = [
  'Garage Dupont — entretien auto à Lyon', '',
  'Horaires', 'Nous sommes ouverts du lundi au vendredi de 8h à 18h30. Le garage est fermé le dimanche.', '',
  'Tarifs', 'La vidange avec filtre coûte 89 € pour une petite voiture.', 'Le changement des plaquettes de frein avant coûte 120 €, pièces et main d\'œuvre comprises.', '',
  'Paiement', 'Nous acceptons la carte bancaire, les espèces et les chèques.', '',
  'Garantie', 'Toutes nos réparations sont garanties un an.', '',
  'Nous ne faisons pas la carrosserie ni la peinture.',
].join('\n');
const drafted = (index: ReturnType<typeof buildIndex>, question: string) => replyPieces(answerParts(index, question, GATES.draft)).quotes.join('\n');

describe('French knowledge bases', () => {
  const index = buildIndex(splitPassages(GARAGE));

  it('is told apart from an English one that names a French street', () => {
    assert.equal(index.language, 'fr');
    assert.equal(languageOf('The shop is at 12 rue de la Paix. We are open from Tuesday to Saturday and we repair all bikes.'), 'en');
  });

  it('compares French words by a light stem, accents folded and stop words left out', () => {
    assert.equal(frenchStem('reparez'), frenchStem('reparations'));
    assert.deepEqual([...queryTerms('Vous êtes ouverts ?', 'fr')], [...queryTerms('vous etes ouvert', 'fr')]);
    assert.deepEqual([...queryTerms('Bonjour, est-ce que vous pouvez ? merci', 'fr')], []);
    assert.deepEqual([...queryTerms('combien', 'fr')], [...queryTerms('price')], '"combien" asks a price, like "how much"');
    assert.ok(!queryTerms('combien de temps', 'fr').has([...queryTerms('price')][0]!), '"combien de temps" asks a duration, not a price');
    // Near miss: the same letters in an English knowledge base are English words ("car" is not the French "car", for).
    assert.deepEqual([...queryTerms('car wash')], ['car', 'wash']);
  });

  it('drafts the French answer to a question written as people type it, and declines what it does not say', () => {
    assert.match(drafted(index, 'slt c\'est combien les plaquettes de freins a l\'avant svp'), /plaquettes de frein avant coûte 120 €/);
    assert.match(drafted(index, 'les reparations sont garanties combien de temps ?'), /garanties un an/);
    assert.ok(!answered(answerParts(index, 'Vous vendez des pneus d\'occasion ?', GATES.draft)));
  });

  it('reads "18h30" as a time of day', () => {
    assert.ok(queryTerms('de 8h à 18h30').has([...queryTerms('hour')][0]!));
    assert.ok(!queryTerms('we have 18 rooms').has([...queryTerms('hour')][0]!));
  });
});

describe('numbers written as words', () => {
  it('compares "three" and "3", not "one", which is a pronoun as often', () => {
    assert.deepEqual([...queryTerms('a three bed semi')], [...queryTerms('a 3 bed semi')]);
    assert.ok(queryTerms('deux à trois jours', 'fr').has('2'));
    assert.ok(!queryTerms('which one').has('1'));
  });

  it('a number asked is covered only by a sentence stating it', () => {
    const index = buildIndex(splitPassages('# Prices\n\nA 1 hour group walk is £14.\n\nA two hour walk is £25.'));
    const [best] = index.rankSentences('how much for a 2 hour walk', index.passages[0]!);
    assert.equal(best!.sentence.text, 'A two hour walk is £25.');
    const index1 = buildIndex(splitPassages('# Prices\n\nA 1 hour group walk is £14.'));
    assert.ok(index1.rankSentences('how much for a 2 hour walk', index1.passages[0]!)[0]!.coverage < 1, 'near miss: "1 hour" does not cover "2 hour"');
  });
});

describe('greetings and framing of the asker', () => {
  it('leaves out "hiya", "a bit worried", "what happens if" and the ends of contractions', () => {
    assert.deepEqual([...queryTerms("hiya, a bit worried about what happens if we're late")], ['late']);
    // Near miss: words that begin like them are kept.
    assert.deepEqual([...queryTerms('bitter happiness')], ['bitter', 'happi']);
  });
});

describe("the asker's own words", () => {
  it('are the subject of what the asker has or is, not the object of a request', () => {
    // "son" is compared as "child" (synonyms.ts).
    assert.deepEqual([...askerTerms('My son has a nut allergy, are your cakes safe for him?')], ['child']);
    assert.deepEqual([...askerTerms('We have two labs, is the second one cheaper?')], ['lab']);
    assert.deepEqual([...askerTerms("Hi, I'm a total beginner")], ['beginn']);
    // Near misses: what is asked about keeps its weight.
    assert.deepEqual([...askerTerms('Can you groom my cat?')], []);
    assert.deepEqual([...askerTerms('Can we have a wedding party at the house?')], []);
  });

  it('do not count against a sentence when the knowledge base never uses them, and still do when it asks about them', () => {
    const index = buildIndex(splitPassages('# Walks\n\nSolo walks are for dogs who are nervous.\n\n# Prices\n\nA group walk is £14.'));
    const told = index.rankSentences('My cockapoo is nervous, do you do solo walks?', index.passages[0]!)[0]!;
    const asked = index.rankSentences('Do you do solo walks for a nervous cockapoo?', index.passages[0]!)[0]!;
    assert.equal(told.coverage, 1);
    assert.ok(asked.coverage < 0.8, `the cockapoo asked about counts: ${asked.coverage}`);
  });
});

describe('a question of kind words only', () => {
  it('is about what the question before it named', () => {
    assert.deepEqual(questionParts('do you clean carpets too? and how much'), ['do you clean carpets too? and how much']);
    assert.deepEqual(questionParts('vous faites la clim ? combien ?', 'fr'), ['vous faites la clim ? combien ?']);
    // Near miss: a second question that names its own subject stays a question of its own.
    assert.equal(questionParts('do you clean carpets? and how much is gutter clearing?').length, 2);
  });

  it('so a price sentence does not answer it on its own', () => {
    const index = buildIndex(splitPassages('We clean windows for homes and shops.\n\nGutter clearing starts at £60.'));
    assert.ok(!answered(answerParts(index, 'hi do you clean carpets too? and how much', GATES.draft)));
  });
});
