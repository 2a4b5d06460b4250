// Issue 36, thirteenth round: "free", "extra", "included" covered by a sentence's price or freeness
// only when the thing asked the cost of stands near it; a German word with an umlaut is not the stop
// word its folding reads as. Each with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { costDistances, costThing } from '../src/knowledge/cost-thing.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { COST_TERMS, questionTerms, termOf } from '../src/knowledge/terms.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');
const same = (t: string) => t;

describe('the thing asked the cost of', () => {
  it('is the words after the cost word, else the nearest before it', () => {
    assert.deepEqual(costThing('is there a free trial day', 'en', COST_TERMS, same), [termOf('trial'), termOf('day')]);
    assert.deepEqual(costThing('is fuel extra?', 'en', COST_TERMS, same), [termOf('fuel')]);
    assert.deepEqual(costThing('le parking est payant ?', 'fr', COST_TERMS, same), [termOf('parking', 'fr')]);
  });
  it('near miss: "is it free?" names no thing, and a question without a cost word has none', () => {
    assert.deepEqual(costThing('is it free?', 'en', COST_TERMS, same), []);
    assert.deepEqual(costThing('how much is a trial day', 'en', COST_TERMS, same), []);
  });
  it('a sentence\'s words are measured from its price or freeness', () => {
    const near = costDistances('If a payment fails, we will try again after 7 days and add a £5 admin charge.', 'en')!;
    assert.equal(near.get(termOf('admin')!), 1);
    assert.ok(near.get(termOf('try')!)! > 5);
    assert.equal(costDistances('We open at nine every day.', 'en'), null);
  });
});

describe('whether a thing costs, answered only near the thing', () => {
  const gym = kb('## Payments', '', '2.1 Membership is £29 a month, paid by direct debit on the 1st.', '',
    '2.2 If a payment fails, we will try again after 7 days and add a £5 admin charge.', '', '## Timetable', '', 'Yoga and spin classes are included in every membership.');
  it('a price sentence that holds the thing\'s words far from its price does not answer "is there a free trial day"', () => {
    assert.equal(quotes(gym, 'is there a free trial day', GATES.auto), '');
  });
  it('near miss: the thing beside the freeness or price is still answered', () => {
    assert.match(quotes(gym, 'are classes extra?'), /classes are included/);
    const rental = kb('Prices', '', 'The van costs £60 a day. Fuel, oil and tolls are included in the price.');
    assert.match(quotes(rental, 'is fuel extra?'), /Fuel, oil and tolls are included/);
    const camping = kb('Bon à savoir', '', 'Le parking de la plage est gratuit hors juillet et août.', '', 'Les enfants doivent avoir 8 ans.');
    assert.match(quotes(camping, 'le parking est payant ?'), /parking de la plage est gratuit/);
  });
});

describe('a German word with an umlaut is not the stop word it folds as', () => {
  it('"ändern" (to change) is a term though "andern" (others) is a stop word', () => {
    assert.notEqual(termOf('ändern', 'de'), null);
    assert.equal(termOf('andern', 'de'), null);
  });
  it('near miss: a stop word written with an umlaut stays one, typed with it or without', () => {
    for (const w of ['für', 'fur', 'über', 'können']) assert.equal(termOf(w, 'de'), null, w);
  });
  it('"kann ich meine Bestellung noch ändern" is not answered by how to collect an order', () => {
    const shop = kb('**Kann ich meine Bestellung abholen?**', 'Ja, Sie können Ihre Bestellung kostenlos in unserem Laden in Leipzig abholen.', '',
      '**Wie lange dauert der Versand?**', 'Der Versand dauert zwei bis drei Werktage.');
    assert.equal(quotes(shop, 'kann ich meine bestellung noch ändern', GATES.auto), '');
    assert.match(quotes(shop, 'kann ich meine bestellung im laden abholen'), /abholen/);
  });
});

describe('the measure a question asks frames it, in every language', () => {
  it('"wie lange", "combien de temps", "quanto tempo", "cuánto tiempo" leave no topic word, as "how long" does', () => {
    assert.deepEqual([...questionTerms('wie lange vorher muss ich absagen', 'de')], [termOf('vorher', 'de'), termOf('absagen', 'de')]);
    assert.ok(![...questionTerms('le premier passage dure combien de temps', 'fr')].includes(termOf('temps', 'fr')!));
    assert.ok(![...questionTerms('quanto tempo ci vuole', 'it')].includes(termOf('tempo', 'it')!));
    assert.ok(![...questionTerms('cuanto tiempo tardais', 'es')].includes(termOf('tiempo', 'es')!));
  });
  it('near miss: "combien de personnes", "wie viele Stunden" keep what they count, and "Zeit" elsewhere stays a word', () => {
    assert.ok([...questionTerms('combien de personnes', 'fr')].includes(termOf('personnes', 'fr')!));
    assert.ok([...questionTerms('wie viele Stunden', 'de')].includes(termOf('stunden', 'de')!));
    assert.ok([...questionTerms('habt ihr Zeit am Montag', 'de')].includes(termOf('zeit', 'de')!));
  });
  it('a French question of how long is drafted from the sentence that states the duration', () => {
    const index = kb('Nos prestations', '', 'Le premier passage dure trois heures. Ensuite, nous venons chaque semaine ou tous les quinze jours.', '',
      'Les produits ménagers sont fournis par nos soins, mais vous pouvez nous donner les vôtres si vous le souhaitez.', '',
      'Le paiement se fait à la fin du mois par virement ou par chèque.');
    assert.match(quotes(index, 'le premier passage dure combien de temps', GATES.auto), /trois heures/);
  });
});

describe('paying, in a question that asks a price', () => {
  const gym = kb('Iscrizione', '', "L'iscrizione costa 30 € e vale un anno dalla data del primo ingresso.", '', 'Armadietti', '',
    'Gli armadietti si chiudono con un lucchetto personale, che potete portare da casa o comprare alla reception.', '', 'Orari', '',
    'La palestra è aperta dal lunedì al venerdì dalle 7 alle 22 e il sabato dalle 9 alle 18.');
  it('"quanto si paga" is covered by the sentence that states the price', () => {
    assert.match(quotes(gym, 'quanto si paga di iscrizione', GATES.auto), /30 €/);
  });
  it('near miss: without a price asked, paying is a word a sentence must hold ("can I pay in cash?")', () => {
    const shop = kb('Prices', '', 'A deposit of £50 secures the date.', '', 'Opening', '', 'We are open from 9 to 5.');
    const covered = (q: string) => answerParts(shop, q, GATES.draft).parts[0]!.best?.coverage ?? 0;
    assert.ok(covered('can i pay the deposit in cash') < covered('how much do i pay for the deposit'));
    assert.equal(quotes(shop, 'can i pay the deposit in cash', GATES.auto), '');
  });
});

describe('money itself, and the irregular forms of light verbs', () => {
  const rental = kb('Cancelaciones', '', 'Si cancelas la reserva con más de 7 días de antelación, te devolvemos la fianza completa.', '', 'Conductores', '',
    'Puede conducir cualquier persona mayor de 25 años con el carnet en vigor desde hace dos años.', '', 'Recogida', '',
    'La furgoneta se recoge en nuestra nave de la calle Industria 12, de lunes a sábado.');
  it('"me devolvéis el dinero" is answered when the base never says "dinero", which weighs nothing', () => {
    const coverage = (q: string) => answerParts(rental, q, GATES.draft).parts[0]!.best!.coverage;
    assert.equal(coverage('si cancelo la reserva me devolveis el dinero'), coverage('si cancelo la reserva me devolveis'));
    assert.match(quotes(rental, 'si cancelo la reserva me devolveis el dinero', GATES.auto), /te devolvemos la fianza/);
  });
  it('near miss: a base that uses the word weighs it like any other', () => {
    assert.notEqual(termOf('money'), null);
    const shop = kb('Refunds', '', 'We refund the money to the card you paid with.', '', 'Gift cards', '', 'Gift cards are valid for a year.');
    assert.match(quotes(shop, 'how do i get my money back'), /refund the money/);
  });
  it('"made", "done" are light as "make" is: "an album made up" is the album\'s sentence', () => {
    const photos = kb('Albums', '', 'A 30-page linen album costs £250.', '', 'Travel', '', 'Travel within 30 miles of York is included.');
    assert.match(quotes(photos, 'can we get an album made up and how much are they', GATES.auto), /linen album costs £250/);
  });
  it('near miss: a light verb still names nothing alone: "what is made here?" finds no sentence', () => {
    const photos = kb('Albums', '', 'A 30-page linen album costs £250.', '', 'Travel', '', 'Travel within 30 miles of York is included.');
    assert.equal(quotes(photos, 'what gets made here?'), '');
  });
});
