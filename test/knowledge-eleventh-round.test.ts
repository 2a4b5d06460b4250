// Issue 36, eleventh round: the amount, clock and address markers compared as their English terms
// in French and German too; a message split into its questions in French, German, Italian and
// Spanish; and the rules that keep `auto` from sending what the knowledge base does not say. Each
// with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { termOf, textTerms } from '../src/knowledge/terms.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');

describe('the amount, clock and address markers in French and German', () => {
  it('"45 €" gives the term "prix" gives, in French and in German', () => {
    assert.ok(textTerms('La séance coûte 45 €.', 'fr').has(termOf('prix', 'fr')!));
    assert.ok(textTerms('Eine Stunde: 45 €', 'de').has(termOf('Preis', 'de')!));
    assert.equal(termOf('price', 'fr'), termOf('price', 'en'));
    assert.ok(textTerms('ouvert à 9h30', 'fr').has(termOf('heure', 'fr')!));
    assert.ok(textTerms('Hafenstraße 12, 28217 Bremen', 'de').has(termOf('Adresse', 'de')!));
    assert.ok(textTerms('12 rue de la Paix, Paris', 'fr').has(termOf('adresse', 'fr')!));
  });
  it('near miss: a French word that only looks like an English marker keeps its own stem', () => {
    assert.notEqual(termOf('prise', 'fr'), termOf('prix', 'fr'));
    assert.ok(!textTerms('La prise est dans le couloir.', 'fr').has(termOf('prix', 'fr')!));
  });
  it('a French price question finds the sentence with the amount', () => {
    const index = kb('## Tarifs', 'Une séance individuelle : 45 €.', '', '## Horaires', 'Le cabinet est ouvert du lundi au vendredi, de 9h à 19h, et le samedi matin sur rendez-vous.', '',
      '## Accès', 'Nous sommes au 12 rue de la Paix, au premier étage, avec un ascenseur pour les fauteuils et les poussettes.');
    assert.equal(index.language, 'fr');
    assert.match(quotes(index, 'c\'est combien une séance ?', GATES.auto), /45 €/);
  });
});
