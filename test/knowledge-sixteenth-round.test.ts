// Issue 36, sixteenth round: the asker's number ("mon fils a 5 ans") is covered by a sentence whose
// number counts the same thing ("dès 4 ans"): a threshold answers the asker's case. With near misses:
// a number counting another thing or nothing, and a question for a price, whose number names the thing.
// A day the base never writes finds the passages naming any day; one it writes, its own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { countsOf } from '../src/knowledge/counts.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');
/** The coverage of the best sentence of any passage for a question. */
const coverage = (index: ReturnType<typeof kb>, q: string) => Math.max(...index.passages.map((p) => index.rankSentences(q, p)[0]?.coverage ?? 0));

describe('a number and the word it counts', () => {
  it('are read in every language, a count being one to three digits', () => {
    assert.deepEqual([...countsOf('Nous accueillons les enfants dès 4 ans.', 'fr')], [['4', 'ans']]);
    assert.deepEqual([...countsOf('Dogs over 7 months must be neutered', 'en')], [['7', 'month']]);
    assert.deepEqual([...countsOf('Kinder unter 14 Jahren klettern nur in Begleitung.', 'de')], [['14', 'jahr']]);
  });
  it('near miss: a number before a stop word, another number or nothing, or of four digits, counts nothing', () => {
    assert.deepEqual([...countsOf('£15 a night', 'en')], []);
    assert.deepEqual([...countsOf('Rufen Sie an: 0761 000 000', 'de')], []);
    assert.deepEqual([...countsOf('mon fils a 12', 'fr')], []);
  });
});

describe("the asker's number against a threshold", () => {
  const riding = kb('# Centre équestre', '', "**L'âge.** Nous accueillons les enfants dès 4 ans sur nos poneys. Les adultes sont les bienvenus.", '', '**Les tarifs.** La carte de 10 séances coûte 210 €.');
  it('is covered by a sentence counting the same thing, as if it wrote the number', () => {
    assert.equal(coverage(riding, 'mon fils a 5 ans, il peut venir ?'), coverage(riding, 'mon fils a 4 ans, il peut venir ?'));
    const daycare = kb('HOUSE RULES', '', '- Dogs over 7 months must be neutered or spayed', '- Bring your own lead');
    assert.match(quotes(daycare, 'my dog is 9 months old and not neutered, can he still come?'), /over 7 months must be neutered/);
  });
  it('near miss: a number counting another thing, or nothing, is not covered', () => {
    assert.ok(coverage(riding, 'vous avez 5 poneys, il peut venir ?') < coverage(riding, 'vous avez 4 poneys, il peut venir ?'));
    assert.ok(coverage(riding, 'mon fils a 5, il peut venir ?') < coverage(riding, 'mon fils a 4, il peut venir ?'));
  });
  it('near miss: in a question for a price the number names the thing priced, which another count is not', () => {
    const walks = kb('Prices', '', '| Service | Price |', '|---|---|', '| Group walk, 1 hour | £14 |', '| Overnight house sitting | £45 a night |', '', 'Walks', '', 'Group walks are up to four dogs at a time, for one hour.');
    assert.equal(coverage(walks, 'is a 2 hour walk possible'), 1);
    assert.ok(coverage(walks, 'how much is a 2 hour walk') < coverage(walks, 'how much is a 1 hour walk'));
  });
});

describe('a day the knowledge base never writes', () => {
  const cleaning = kb('# Ménage', '', '## Horaires', '', 'Nos équipes passent du lundi au vendredi, de 8 h à 18 h.', '', '## Tarifs', '', "L'heure de ménage coûte 25 €.");
  it('finds the passages naming any day', () => {
    assert.deepEqual(cleaning.search('vous venez le samedi ?').map((m) => m.passage.heading), ['Horaires']);
  });
  it('near miss: a day the base writes finds its own passage only, and a base naming no day finds nothing', () => {
    const both = kb('# Ménage', '', '## Horaires', '', 'Nos équipes passent du lundi au vendredi, de 8 h à 18 h.', '', '## Week-end', '', 'Le samedi, une équipe vient sur demande.');
    assert.deepEqual(both.search('vous venez le samedi ?').map((m) => m.passage.heading), ['Week-end']);
    const none = kb('# Ménage', '', '## Tarifs', '', "L'heure de ménage coûte 25 €.", '', '## Produits', '', 'Nous apportons nos produits.');
    assert.equal(none.search('vous venez le samedi ?').length, 0);
  });
});
