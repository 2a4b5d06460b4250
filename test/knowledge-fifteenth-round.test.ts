// Issue 36, fifteenth round: a German day of the month ("24. Juni") ends no sentence; a hyphenated word
// of the knowledge base is also the word written solid ("Wi-Fi" for "wifi"). Each with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { isGermanDate, splitUnits } from '../src/knowledge/sentences.ts';
import { termOf, textTerms } from '../src/knowledge/terms.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');
const pieces = (text: string) => splitUnits(text).map((u) => text.slice(u.start, u.end));

describe('a German date: a day\'s number with a dot, then a month', () => {
  it('ends no sentence, written out or short', () => {
    assert.deepEqual(pieces('Spargel: Mitte April bis 24. Juni'), ['Spargel: Mitte April bis 24. Juni']);
    assert.deepEqual(pieces('Am 3. Okt. ist der Laden geschlossen. Sonst wie immer.'), ['Am 3. Okt. ist der Laden geschlossen.', 'Sonst wie immer.']);
    const shop = kb('Hofladen', '', 'Was es wann gibt', 'Spargel: Mitte April bis 24. Juni', 'Kartoffeln: August bis März');
    assert.match(quotes(shop, 'Ab wann gibts Spargel?'), /24\. Juni/);
  });
  it('near miss: a dot after an amount or a number of days, or before a word that is no month, still ends a sentence', () => {
    assert.deepEqual(pieces('Die Milch kostet 1,20 €. Mai bis Juli gibt es Erdbeeren.'), ['Die Milch kostet 1,20 €.', 'Mai bis Juli gibt es Erdbeeren.']);
    assert.deepEqual(pieces('Wir haben Platz für 24. Juniorkurse gibt es nicht.'), ['Wir haben Platz für 24.', 'Juniorkurse gibt es nicht.']);
    assert.deepEqual(pieces('Bitte 48 Stunden vorher absagen, sonst zahlen Sie 40. Mai ist ausgebucht.'), ['Bitte 48 Stunden vorher absagen, sonst zahlen Sie 40.', 'Mai ist ausgebucht.']);
    assert.equal(isGermanDate('Tag 32. Juni', 6, 8), false);
  });
});

describe('a hyphenated word of the knowledge base', () => {
  it('is also the word written solid, so the customer\'s "wifi" is its "Wi-Fi"', () => {
    assert.ok(textTerms('Wi-Fi: the network is OldRectory.').has(termOf('wifi')!));
    assert.ok(textTerms('Gutscheine gibt es im Online-Shop.', 'de').has(termOf('onlineshop', 'de')!));
    const rules = kb('GOOD TO KNOW', '', '* Wi-Fi: the network is OldRectory and the password is on the back of your door.', '* Breakfast is served from 8 to 9.30.');
    assert.match(quotes(rules, 'whats the wifi password', GATES.auto), /password is on the back of your door/);
  });
  it('near miss: the pieces stay words of their own, and words apart are never joined', () => {
    const terms = textTerms('Drop-off at the front desk; we do not drop off at the door.');
    assert.ok(terms.has(termOf('drop')!) && terms.has(termOf('dropoff')!));
    assert.ok(!textTerms('we do not drop off at the door').has(termOf('dropoff')!));
    const rules = kb('GOOD TO KNOW', '', '* Wi-Fi: the network is OldRectory and the password is on the back of your door.');
    assert.doesNotMatch(quotes(rules, 'whats the alarm code', GATES.auto), /password/);
  });
});
