// Issue 36, tenth round: Italian and Spanish knowledge bases compared in their own terms (italian.ts,
// spanish.ts): told apart from English, French and German, stemmed, stop words dropped, a price or an
// hour asked in their words, the kinds of answer their questions ask for. Each with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askedTypes, statesAnswer } from '../src/knowledge/answer-types.ts';
import { GATES } from '../src/knowledge/answerability.ts';
import { italianStem } from '../src/knowledge/italian.ts';
import { languageOf } from '../src/knowledge/languages.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { spanishStem } from '../src/knowledge/spanish.ts';
import { questionTerms, termOf, textTerms } from '../src/knowledge/terms.ts';
import { answered, answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');

const lavanderia = kb(
  '## Prezzi', 'Una camicia lavata e stirata costa € 3,50. Un piumone matrimoniale costa € 22,00.', '',
  '## Orari', 'Siamo aperti dal lunedì al venerdì dalle 8:00 alle 19:30 e il sabato dalle 8:30 alle 13:00. Chiuso dal 10 al 24 agosto.', '',
  '## Dove siamo', 'La lavanderia si trova in Via San Vitale 41, Bologna, vicino alle due torri.', '',
  '## Ritiro', 'Ritiriamo e consegniamo a domicilio il martedì e il giovedì, gratis sopra i € 40 di spesa.',
);
const clinica = kb(
  '## Horario', 'Abrimos de lunes a viernes de 9:30 a 14:00 y los sábados de 10:00 a 13:30.', '',
  '## Precios', 'La consulta general cuesta 35 €. La vacuna de la rabia cuesta 30 €.', '',
  '## Dónde estamos', 'Estamos en la Calle Feria 87, Sevilla, cerca de la Alameda.', '',
  '## Servicios', 'Atendemos conejos, hurones y cobayas. No atendemos aves ni reptiles.',
);

describe('the language of a knowledge base', () => {
  it('Italian and Spanish bases are read as such, a French one stays French', () => {
    assert.equal(lavanderia.language, 'it');
    assert.equal(clinica.language, 'es');
    assert.equal(languageOf('Nous sommes ouverts du lundi au vendredi. Le prix de la séance est de 45 €, et vous pouvez payer par carte ou en espèces dans le cabinet. Il faut réserver à l\'avance pour les enfants et pour les adultes.'), 'fr');
  });
  it('near miss: an English base with an Italian address and dish names stays English', () => {
    assert.equal(languageOf('We are a small Italian restaurant at Via della Rosa 4. Try our pasta alla norma and the tiramisù della nonna. We are open from Tuesday to Sunday and you can book a table online or by phone.'), 'en');
  });
});

describe('Italian and Spanish terms', () => {
  it('the forms of a word share a stem, accents folded', () => {
    assert.equal(italianStem('prenotare'), italianStem('prenotazione'));
    assert.equal(italianStem('prezzi'), italianStem('prezzo'));
    assert.equal(spanishStem('reservas'), spanishStem('reservar'));
    assert.equal(termOf('sábado', 'es'), termOf('sabado', 'es'));
    assert.equal(termOf('lunedì', 'it'), termOf('lunedi', 'it'));
  });
  it('near miss: different words keep different stems', () => {
    assert.notEqual(italianStem('camicia'), italianStem('camera'));
    assert.notEqual(spanishStem('perro'), spanishStem('pera'));
  });
  it('stop words and framing are dropped; price and hour words are the English terms', () => {
    assert.deepEqual([...questionTerms('buongiorno, vorrei sapere quanto costa una camicia', 'it')].sort(), [termOf('camicia', 'it'), termOf('price')].sort());
    assert.equal(termOf('cuánto', 'es'), null);
    assert.equal(termOf('precio', 'es'), termOf('price'));
    assert.equal(termOf('orari', 'it'), termOf('hour'));
  });
  it('an amount of money in the text is the English price term', () => {
    assert.ok(textTerms('La consulta cuesta 35 €.', 'es').has(termOf('price')!));
    assert.ok(!textTerms('La consulta es por la mañana.', 'es').has(termOf('price')!));
  });
});

describe('the kind of answer an Italian or Spanish question asks for', () => {
  it('price, time, place, duration', () => {
    assert.deepEqual(askedTypes('quanto costa una camicia?'), ['price']);
    assert.deepEqual(askedTypes('cuánto cuesta la consulta'), ['price']);
    assert.deepEqual(askedTypes('a che ora aprite il sabato'), ['time']);
    assert.deepEqual(askedTypes('a qué hora abrís?'), ['time']);
    assert.deepEqual(askedTypes('cuando abris'), ['time']);
    assert.deepEqual(askedTypes('dove siete di preciso'), ['place']);
    assert.deepEqual(askedTypes('dónde estáis'), ['place']);
    assert.deepEqual(askedTypes('quanto tempo ci vuole'), ['duration']);
  });
  it('near miss: "quando" after a verb opens a clause, not a question; "quanti" asks a number', () => {
    assert.deepEqual(askedTypes('posso venire quando chiudete?'), []);
    assert.deepEqual(askedTypes('quanti posti ci sono'), ['number']);
  });
  it('days and months written out state a time; a sentence without them does not', () => {
    assert.equal(statesAnswer('time', 'Il lunedì siamo chiusi.'), true);
    assert.equal(statesAnswer('time', 'Cerrado del 10 al 24 de agosto.'), true);
    assert.equal(statesAnswer('time', 'Vendemos pienso veterinario con receta.'), false);
  });
});

describe('replies from Italian and Spanish knowledge bases', () => {
  it('a price, a time and a place are answered in the base\'s own sentences', () => {
    assert.ok(quotes(lavanderia, 'quanto costa lavare una camicia?').includes('Una camicia lavata e stirata costa € 3,50.'));
    assert.ok(quotes(lavanderia, 'a che ora aprite il sabato').includes('il sabato dalle 8:30 alle 13:00'));
    assert.ok(quotes(clinica, 'cuanto cuesta la consulta').includes('La consulta general cuesta 35 €.'));
    assert.ok(quotes(clinica, 'donde estais').includes('Calle Feria 87'));
  });
  it('near miss: a question sharing words with the base but not answered by it is declined', () => {
    assert.ok(!answered(answerParts(lavanderia, 'lavate anche le scarpe da ginnastica?', GATES.draft)));
    assert.ok(!answered(answerParts(clinica, 'hacéis ecografías a los conejos?', GATES.auto)));
  });
});
