// Issue 36, eleventh round: the amount, clock and address markers compared as their English terms
// in French and German too; a message split into its questions in French, German, Italian and
// Spanish; and the rules that keep `auto` from sending what the knowledge base does not say. Each
// with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askedTypes, statesAnswer } from '../src/knowledge/answer-types.ts';
import { GATES } from '../src/knowledge/answerability.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { splitUnits } from '../src/knowledge/sentences.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { askerTerms } from '../src/knowledge/asker-terms.ts';
import { termOf, textTerms } from '../src/knowledge/terms.ts';
import { isLightVerb } from '../src/knowledge/light-words.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';
import { questionParts } from '../src/replies/question-parts.ts';

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

describe('a message cut into its questions in French, German, Italian and Spanish', () => {
  it('"e", "y", "und", "et" before a word that opens a question cut the sentence', () => {
    assert.deepEqual(questionParts('quanto costa una camicia e fate anche riparazioni sartoriali?', 'it'), ['quanto costa una camicia', 'e fate anche riparazioni sartoriali?']);
    assert.deepEqual(questionParts('cuanto cuesta la consulta y haceis analisis de sangre?', 'es'), ['cuanto cuesta la consulta', 'y haceis analisis de sangre?']);
    assert.deepEqual(questionParts('Was kostet Manuelle Therapie und kann ich mit Karte zahlen?', 'de'), ['Was kostet Manuelle Therapie', 'und kann ich mit Karte zahlen?']);
    assert.deepEqual(questionParts('c\'est combien le stage et vous faites des cours particuliers ?', 'fr'), ['c\'est combien le stage', 'et vous faites des cours particuliers ?']);
    assert.deepEqual(questionParts('riparate i condizionatori e quanto costa l\'uscita di sera?', 'it'), ['riparate i condizionatori', 'e quanto costa l\'uscita di sera?']);
  });
  it('near miss: "and" between two things asked about, or between alternatives, cuts nothing', () => {
    assert.equal(questionParts('quanto costano le camicie lavate e stirate?', 'it').length, 1);
    assert.equal(questionParts('je voudrais du pain et du beurre ?', 'fr').length, 1);
    assert.equal(questionParts('Was kostet Brot und Kuchen für meine Tochter und mich?', 'de').length, 1);
    assert.equal(questionParts('tengo que pedir cita o puedo ir directamente', 'es').length, 1);
    // The same words read as English are not cut: the tables are the language's own.
    assert.equal(questionParts('cuanto cuesta la consulta y haceis analisis de sangre?').length, 1);
  });
  it('near miss: a first clause that asks nothing stays with the question after it', () => {
    assert.deepEqual(questionParts('tengo un perro mayor y podéis venir a casa?', 'es'), ['tengo un perro mayor y podéis venir a casa?']);
  });
  it('each question is answered from its own passage', () => {
    const index = kb('## Prezzi', 'Una camicia lavata e stirata costa € 3,50. Un piumone matrimoniale costa € 22,00.', '',
      '## Orari', 'Siamo aperti dal lunedì al venerdì dalle 8:00 alle 19:30 e il sabato dalle 8:30 alle 13:00.', '',
      '## Ritiro', 'Ritiriamo e consegniamo a domicilio il martedì e il giovedì, gratis sopra i € 40 di spesa.');
    const answer = answerParts(index, 'quanto costa una camicia e fate il ritiro a domicilio?', GATES.draft);
    assert.equal(answer.parts.length, 2);
    assert.match(answer.parts[0]!.quote.join(' '), /3,50/);
    assert.match(answer.parts[1]!.quote.join(' '), /domicilio/);
  });
});

describe('what keeps auto from sending what the knowledge base does not say', () => {
  const pasticceria = kb('Siamo una pasticceria di famiglia aperta dal 1962 in Corso Vittorio Emanuele 118, a Torino. Facciamo torte su ordinazione, pasticcini e colazioni.', '',
    'Le torte si ordinano con tre giorni di anticipo. Una torta per 12 persone costa € 38,00.', '',
    'Siamo aperti dal martedì alla domenica dalle 7:30 alle 19:30; il lunedì siamo chiusi.');
  it('the kind of a street before its name is no word of the text: "corsi" does not find "Corso Vittorio Emanuele"', () => {
    assert.ok(!textTerms('in Corso Vittorio Emanuele 118, a Torino', 'it').has(termOf('corsi', 'it')!));
    assert.equal(quotes(pasticceria, 'fate corsi di pasticceria?'), '');
    // The street is still an address: "dove siete?" finds it.
    assert.ok(textTerms('in Corso Vittorio Emanuele 118, a Torino', 'it').has('address'));
    assert.ok(textTerms('Estamos en la Calle Feria 87, Sevilla.', 'es').has('address'));
    assert.match(quotes(pasticceria, 'dove siete?'), /Corso Vittorio Emanuele/);
  });
  it('near miss: the word itself, not before a street\'s name, is a word of the text', () => {
    assert.ok(textTerms('I corsi di pasticceria si tengono il sabato.', 'it').has(termOf('corsi', 'it')!));
    assert.ok(textTerms('la calle es tranquila', 'es').has(termOf('calle', 'es')!));
    const corsi = kb('I corsi di pasticceria si tengono il sabato mattina e costano € 60.', '', 'Siamo in Corso Vittorio Emanuele 118, a Torino.', '', 'Apriamo alle 7:30 tutti i giorni tranne il lunedì.');
    assert.match(quotes(corsi, 'fate corsi di pasticceria?'), /corsi di pasticceria/);
  });
  it('"quanto ci mettete", "cuánto tardáis" ask how long, not a price', () => {
    assert.deepEqual(askedTypes('quanto ci mettete a fare i capi'), ['duration']);
    assert.deepEqual(askedTypes('cuanto tardais en arreglar una pantalla'), ['duration']);
    assert.deepEqual(askedTypes('cuánto se tarda'), ['duration']);
  });
  it('near miss: "quanto ci costa", "cuánto cuesta" still ask a price', () => {
    assert.deepEqual(askedTypes('quanto ci costa'), ['price']);
    assert.deepEqual(askedTypes('cuanto cuesta arreglar una pantalla'), ['price']);
  });
  const lavanderia = kb('## Orari', 'Dal lunedì al venerdì 8:00–19:30, sabato 8:30–13:00. Il self-service è aperto tutti i giorni dalle 7:00 alle 22:00, anche la domenica. Chiuso dal 10 al 24 agosto.', '',
    '## Prezzi', 'Una camicia lavata e stirata costa € 3,50. Un piumone matrimoniale costa € 22,00.', '', '## Dove', 'Si trova in Via San Vitale 41, Bologna.');
  it('a day a sentence names is covered by that sentence, not by one saying "every day" beside it', () => {
    assert.match(quotes(lavanderia, 'a che ora aprite il sabato'), /sabato 8:30–13:00/);
  });
  it('near miss: a day no sentence names is still covered by one naming days', () => {
    assert.match(quotes(lavanderia, 'a che ora aprite la domenica', GATES.draft), /domenica/);
    const english = kb('## Hours', 'We are open Tuesday to Saturday, 9am to 5pm.', '', '## Prices', 'A haircut is £20.', '', '## Where', 'We are at 14 Bernard Street, Leeds.');
    assert.match(quotes(english, 'are you open on mondays?'), /Tuesday to Saturday/);
  });
});

describe('the kind of answer a French or German question asks for', () => {
  const kinds: Array<[string, string[]]> = [
    ['c\'est combien le stage ?', ['price']], ['combien de temps dure le stage', ['duration']], ['combien de personnes par bateau', ['number']],
    ['bjr c combien de l\'heure svp', ['price']], ['les stages c\'est à quelle heure', ['time']], ['c\'est où exactement le rdv', ['place']],
    ['wie lange dauert der Kurs', ['duration']], ['wie lange habt ihr am Sonntag offen?', ['time']], ['wie viele Kinder sind in einer Gruppe?', ['number']],
  ];
  it('"combien", "combien de temps", "quelle heure", "où", "wie lange", "wie viele"', () => {
    for (const [question, expected] of kinds) assert.deepEqual(askedTypes(question), expected, question);
  });
  it('near miss: "ou" (or), "quand" inside a clause, "wie" alone ask no kind', () => {
    assert.deepEqual(askedTypes('carte ou espèces ?'), []);
    assert.deepEqual(askedTypes('je paie quand j\'arrive ?'), []);
    assert.deepEqual(askedTypes('wie funktioniert die Anmeldung?'), []);
  });
  it('French and German days, units and places state the answer; a number in words states how long, not when', () => {
    assert.ok(statesAnswer('time', 'Les stages durent 5 jours, du lundi au vendredi.'));
    assert.ok(statesAnswer('duration', 'Der Schnupperkurs dauert zwei Stunden.'));
    assert.ok(statesAnswer('duration', 'Le stage dure cinq jours.'));
    assert.ok(statesAnswer('place', 'Rendez-vous au club, plage du Moulin à Concarneau.'));
    assert.ok(!statesAnswer('time', 'In den Sommerferien ist das Studio drei Wochen geschlossen.'));
    assert.ok(statesAnswer('time', 'In den Sommerferien ist das Studio 3 Wochen geschlossen.'));
  });
  it('a French question of a kind no sentence states is not answered', () => {
    const voile = kb('## Stages', 'Les stages de voile sont ouverts aux enfants dès 8 ans et aux adultes, en petits groupes de six.', '',
      '## Matériel', 'Les combinaisons et les gilets sont fournis par le club pour tous les stagiaires.', '', '## Accès', 'Le club est au bout de la plage, à côté du poste de secours.');
    assert.equal(voile.language, 'fr');
    assert.equal(quotes(voile, 'c\'est combien le stage de voile pour les enfants ?'), '');
    assert.match(quotes(voile, 'les stages de voile sont pour les enfants ?'), /dès 8 ans/);
  });
});

describe('the asker\'s own words and light verbs in French, German, Italian and Spanish', () => {
  it('"mi perra es", "wir haben einen", "mon fils a" name what the asker has', () => {
    assert.ok(askerTerms('podeis venir a casa? mi perra es muy mayor', 'es').has(termOf('perra', 'es')!));
    assert.ok(askerTerms('Wir haben einen BuT Gutschein, müssen wir trotzdem zahlen?', 'de').has(termOf('Gutschein', 'de')!));
    assert.ok(askerTerms('mon fils a une allergie, c\'est possible ?', 'fr').has(termOf('fils', 'fr')!));
  });
  it('near miss: the object of a request is what is asked about', () => {
    assert.ok(!askerTerms('podeis ver a mi perra?', 'es').has(termOf('perra', 'es')!));
    assert.ok(!askerTerms('kann ich meinen Hund mitbringen?', 'de').has(termOf('Hund', 'de')!));
  });
  it('"venir", "bekommen", "portare" weigh nothing when the base never uses them; German "bringen" is no light verb of English', () => {
    assert.ok(isLightVerb(termOf('venir', 'fr')!, 'fr'));
    assert.ok(isLightVerb(termOf('bekomme', 'de')!, 'de'));
    assert.ok(isLightVerb(termOf('portare', 'it')!, 'it'));
    assert.ok(!isLightVerb(termOf('bring')!, 'en'));
    assert.ok(!isLightVerb(termOf('venir', 'fr')!, 'en'));
  });
  it('"mitnehmen" is answered by "Bringen Sie … mit" under "Was Sie mitbringen"', () => {
    const physio = kb('## Termine', 'Termine vereinbaren Sie telefonisch oder über das Kontaktformular. Wir sind Montag bis Freitag von 7:30 bis 19 Uhr für Sie da.', '',
      '## Kassenpatienten', 'Sie zahlen nur die Zuzahlung von 10 € pro Rezept plus 10 % der Behandlungskosten.', '',
      '## Was Sie mitbringen', 'Bringen Sie bitte ein großes Handtuch, bequeme Kleidung und Ihr Rezept mit.');
    assert.equal(physio.language, 'de');
    assert.match(quotes(physio, 'Was soll ich zur ersten Behandlung mitnehmen?'), /Handtuch/);
    assert.equal(termOf('mitnehmen', 'de'), termOf('mitbringen', 'de'));
    assert.notEqual(termOf('mitnehmen', 'de'), termOf('nehmen', 'de'));
  });
});

describe('framing in Italian and Spanish, and the first of a month', () => {
  it('"quando", "possibile", "posible" are framing; "succede", "pasa", "hace falta" light', () => {
    assert.equal(termOf('quando', 'it'), null);
    assert.equal(termOf('possibile', 'it'), null);
    assert.equal(termOf('posible', 'es'), null);
    assert.ok(isLightVerb(termOf('pasa', 'es')!, 'es'));
    assert.ok(isLightVerb(termOf('succede', 'it')!, 'it'));
  });
  it('near miss: "quando" still asks a time; "passo" is no light verb of Italian', () => {
    assert.deepEqual(askedTypes('quando aprite?'), ['time']);
    assert.ok(!isLightVerb(termOf('passo', 'it')!, 'it'));
  });
  it('"dal primo novembre" states a date; "primo piano" does not', () => {
    assert.ok(statesAnswer('time', 'Si possono prenotare dal primo novembre.'));
    assert.ok(!statesAnswer('time', 'Lo studio è al primo piano.'));
  });
});

type Language = Parameters<typeof termOf>[1];
/** Pairs of words in a language that must (or must not) be compared as one term. */
const oneTerm = (pairs: Array<[string, string, Language]>, same: boolean) => {
  for (const [a, b, language] of pairs) assert.equal(termOf(a, language) === termOf(b, language), same, `${a} / ${b}`);
};

describe('a child, a woman, a man, a kilo and a card in the other languages', () => {
  it('"mon fils" is "enfant"\'s term, "mujer" is "Señora"\'s, "kg" is "chilo"\'s, "bancomat" is "carta"\'s', () => {
    oneTerm([['fils', 'enfant', 'fr'], ['mujer', 'señora', 'es'], ['hombre', 'caballero', 'es'], ['kg', 'chilo', 'it'],
      ['bancomat', 'carta', 'it'], ['datafono', 'tarjeta', 'es'], ['girocard', 'Karte', 'de'], ['cb', 'carte', 'fr']], true);
  });
  it('near miss: a woman is no man; greetings ("Gentile signora") name nobody asked about; cash and a bank transfer are no card', () => {
    oneTerm([['mujer', 'hombre', 'es'], ['signora', 'donna', 'it'], ['contanti', 'carta', 'it'], ['bancaire', 'carte', 'fr'], ['Überweisung', 'Karte', 'de']], false);
    assert.notEqual(termOf('Herren', 'de'), termOf('man'));
  });
  it('"un corte de mujer" is priced from the rows under "Señora"', () => {
    const peluqueria = kb('# Peluquería – Tarifas', '', '## Señora', '', '| Servicio | Precio |', '|---|---|', '| Corte y peinado | 28 € |', '| Tinte raíz | 32 € |', '',
      '## Caballero', '', '| Servicio | Precio |', '|---|---|', '| Corte | 14 € |', '| Corte y barba | 20 € |', '', '## Horario', '', 'Martes a viernes de 10:00 a 20:00; sábados de 9:00 a 14:00. Domingos y lunes cerrado.', '',
      '## Citas', '', 'Se puede pedir cita por teléfono o por WhatsApp, y si no hay mucha gente también atendemos sin cita. Si no puedes venir, avísanos con un día de antelación para que otra persona pueda usar la hora.');
    assert.equal(peluqueria.language, 'es');
    assert.match(quotes(peluqueria, 'cuanto cuesta un corte de pelo de mujer'), /Corte y peinado \| 28 €/);
    assert.match(quotes(peluqueria, 'cuanto cuesta un corte de hombre'), /Corte \| 14 €/);
  });
});

describe('lines opened by an emoji', () => {
  const lines = (body: string) => splitUnits(body).map((u) => ({ text: body.slice(u.start, u.end), row: u.row }));
  it('are list items, each quoted on its own, whether or not they end in a full stop', () => {
    assert.deepEqual(lines('🐶 Dogs welcome in the garden\n☕ Free coffee for members\n✔ Parking at the back'), [
      { text: '🐶 Dogs welcome in the garden', row: true }, { text: '☕ Free coffee for members', row: true }, { text: '✔ Parking at the back', row: true }]);
    assert.equal(lines('👨‍👩‍👧 Families welcome\n🌬️ Windy days are rescheduled').length, 2);
    const index = kb('Good to know', '🐶 Dogs are welcome in the garden but not inside', '☕ Coffee is free for members', '🕘 We open 9am to 5pm every day', '',
      'Where to find us', '📍 12 Mill Lane, Bath, next to the river', '💳 We take cards and cash, no cheques');
    assert.match(quotes(index, 'hi, are dogs welcome?'), /Dogs are welcome in the garden/);
    assert.doesNotMatch(quotes(index, 'hi, are dogs welcome?'), /Coffee/);
  });
  it('near miss: an emoji inside or at the end of a line of prose makes no list item', () => {
    assert.deepEqual(lines('We love dogs 🐶 and they are welcome in the garden,\nbut not inside the café.'), [
      { text: 'We love dogs 🐶 and they are welcome in the garden,\nbut not inside the café.', row: false }]);
  });
});
