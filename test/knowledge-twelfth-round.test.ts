// Issue 36, twelfth round: a word cut short or a German compound's part read as the knowledge
// base's word, a number of the asker's case weighing half, and "is it free / extra / included?"
// answered by a sentence that states a price or that a thing is free. Each with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { runAtOnce } from '../src/knowledge/steps.ts';
import { freeMeansWithout, textTerms, termOf } from '../src/knowledge/terms.ts';
import { vocabularySteps } from '../src/knowledge/vocabulary.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');
const vocabulary = (terms: string[], isWord?: (t: string) => boolean, compounds = false) => runAtOnce(vocabularySteps(new Map(terms.map((t) => [t, 1])), isWord, compounds));

describe('a word cut short, a German compound\'s part', () => {
  it('a term that begins one word of the knowledge base, more than three letters longer, is that word', () => {
    assert.equal(vocabulary(['combinaison', 'gilet', 'plage']).resolve('combi'), 'combinaison');
    assert.equal(vocabulary(['furgoneta', 'reserva']).resolve('furgo'), 'furgoneta');
  });
  it('near miss: a term that begins two different words is ambiguous and left alone', () => {
    assert.equal(vocabulary(['combinaison', 'combinatoire', 'gilet']).resolve('combi'), 'combi');
  });
  it('near miss: a real English word is not read as the start of a longer one', () => {
    assert.equal(vocabulary(['bathroom', 'shower'], (t) => t === 'bath').resolve('bath'), 'bath');
  });
  it('near miss: under four letters, nothing is read as cut short', () => {
    assert.equal(vocabulary(['labrador', 'walk']).resolve('lab'), 'lab');
  });
  it('in German only, the last part of a compound is the compound', () => {
    assert.equal(vocabulary(['kletterschuh', 'gurt'], undefined, true).resolve('schuh'), 'kletterschuh');
    assert.equal(vocabulary(['kletterschuh', 'gurt'], undefined, false).resolve('schuh'), 'schuh');
  });
  it('in German, a word several compounds end or begin with stands for each of them', () => {
    assert.deepEqual([...vocabulary(['kletterschuh', 'strassenschuh', 'gurt'], undefined, true).compoundsOf('schuh')].sort(), ['kletterschuh', 'strassenschuh']);
    const index = kb('§ 4 Ausrüstung', 'Kletterschuhe und Gurte können an der Theke für je 4 € geliehen werden. Straßenschuhe sind auf den Matten nicht erlaubt.', '',
      '§ 6 Verhalten in der Halle', 'Hunde dürfen nicht in die Halle. Essen ist nur im Bistro erlaubt.', '', '§ 7 Haftung', 'Das Klettern erfolgt auf eigene Gefahr.');
    assert.match(quotes(index, 'was kosten die schuhe?'), /Kletterschuhe/);
  });
  it('near miss: not in English, and not for a word the knowledge base uses itself', () => {
    assert.deepEqual(vocabulary(['kletterschuh', 'strassenschuh'], undefined, false).compoundsOf('schuh'), []);
    assert.deepEqual(vocabulary(['schuh', 'kletterschuh', 'strassenschuh'], undefined, true).compoundsOf('schuh'), []);
  });
  it('a French question with a word cut short is drafted from the sentence of the whole word', () => {
    const index = kb('Bon à savoir', '', 'Les combinaisons et les gilets de sauvetage sont fournis.', '', 'Le parking de la plage est gratuit hors juillet et août.', '',
      'Les enfants doivent avoir 8 ans révolus et savoir nager 25 mètres.');
    assert.match(quotes(index, 'les combis sont fournies ?'), /combinaisons/);
  });
});

describe('a number of the asker\'s case', () => {
  const index = kb('Photography', '', 'A second photographer can be added for £300.', '', 'Edited photos are delivered within six weeks in an online gallery.', '',
    'A deposit of £500 secures the date; the rest is due a month before the wedding.');
  it('a one- or two-digit number the knowledge base never writes weighs half: the rule\'s sentence is drafted', () => {
    assert.match(quotes(index, 'could we have 2 photographers?'), /second photographer/);
  });
  it('near miss: a longer number (a year, a price) keeps its whole weight', () => {
    const asked = (q: string) => answerParts(index, q, GATES.draft).parts[0]!.best!.coverage;
    assert.ok(asked('could we have 2 photographers?') > asked('could we have 1998 photographers?'));
  });
});

describe('whether a thing costs', () => {
  const index = kb('Your booking', '', 'Dogs are welcome on board, two per boat at most, for no extra charge.', '', 'Extra cushions are in the locker.', '', 'Fuel is included in the price. A full day costs £165.', '',
    'Each boat seats up to 8 people, including children and babies.');
  it('"is fuel extra?" is answered by the sentence that says fuel is included', () => {
    assert.match(quotes(index, 'is fuel extra?'), /Fuel is included/);
  });
  it('"le parking est payant ?" by the sentence that says it is free', () => {
    const fr = kb('Bon à savoir', '', 'Le parking de la plage est gratuit hors juillet et août.', '', 'Les combinaisons et les gilets de sauvetage sont fournis.', '',
      'Les enfants doivent avoir 8 ans révolus et savoir nager 25 mètres.');
    assert.match(quotes(fr, 'le parking est payant ?'), /gratuit/);
  });
  it('a sentence with an amount, or saying free, included or extra, states whether a thing costs', () => {
    assert.ok(textTerms('Lockers cost £1.').has('·cost'));
    assert.ok(textTerms('Towels are included.').has('·cost'));
    assert.ok(!textTerms('Towels are provided at reception.').has('·cost'));
  });
  it('near miss: "free" meaning "without" asks no price', () => {
    assert.ok(freeMeansWithout('Do you do gluten free pizza?'));
    assert.ok(freeMeansWithout('are the cakes nut-free?'));
    assert.ok(!freeMeansWithout('is parking free?'));
    assert.ok(!freeMeansWithout('do you have free parking'));
    assert.ok(!freeMeansWithout('is it free for kids'));
    const menu = kb('Menu', '', 'A children\'s menu (pasta or pizza with a drink) costs €12.', '', 'We have gluten-free pasta and pizza bases, made in the same kitchen as regular flour.');
    assert.match(quotes(menu, 'Do you do gluten free pizza?'), /gluten-free pasta/);
    assert.equal(termOf('free'), 'free');
  });
});

describe('"mitbringen" is a light verb in German', () => {
  const index = kb('§ 4 Ausrüstung', 'Kletterschuhe und Gurte können an der Theke für je 4 € ausgeliehen werden. Seile stellt die Halle kostenlos zur Verfügung.', '',
    '§ 6 Verhalten in der Halle', 'Hunde dürfen nicht in die Halle. Essen ist nur im Bistro erlaubt.', '', '§ 7 Haftung', 'Das Klettern erfolgt auf eigene Gefahr.');
  it('"darf ich meinen hund mitbringen" is drafted from the sentence on dogs', () => {
    assert.equal(index.language, 'de');
    assert.match(quotes(index, 'darf ich meinen hund mitbringen'), /Hunde dürfen nicht/);
  });
  it('near miss: in English, "bring" still weighs (it is light in German knowledge bases only)', () => {
    const en = kb('Studio', '', 'Dogs are not allowed in the studio.', '', 'Aprons are provided.', '', 'Classes start at 7pm.');
    const coverage = answerParts(en, 'can I bring my dog', GATES.draft).parts[0]!.best!.coverage;
    assert.ok(coverage < 1);
  });
});
