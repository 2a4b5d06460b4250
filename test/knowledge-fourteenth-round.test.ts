// Issue 36, fourteenth round: a one-line FAQ read as question-and-answer pairs; the business's name in
// a heading, or a heading alone, no stand-in for the thing a price is for; a day asked covered only by
// the sentences whose days hold it. Each with a near miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GATES } from '../src/knowledge/answerability.ts';
import { businessNameTerms } from '../src/knowledge/business-name.ts';
import { daysOf, EVERY_DAY, tierOf, WEEKDAYS, WEEKEND } from '../src/knowledge/days.ts';
import { splitPassages } from '../src/knowledge/passages.ts';
import { buildIndex } from '../src/knowledge/retrieval.ts';
import { termOf } from '../src/knowledge/terms.ts';
import { answerParts, replyPieces } from '../src/replies/offline.ts';

const kb = (...lines: string[]) => buildIndex(splitPassages(lines.join('\n')));
const quotes = (index: ReturnType<typeof kb>, q: string, gate = GATES.draft) => replyPieces(answerParts(index, q, gate)).quotes.join('\n');
const MON = 1;
const SAT = 32;
const SUN = 64;

describe('a one-line FAQ: each line a question and its answer', () => {
  it('the answer is quoted, never the question, in every language', () => {
    const fr = kb('Vélos du Lac', 'Questions fréquentes', '', 'Où êtes-vous ? Au 8 quai de la Tournette.',
      'Les chiens sont-ils acceptés ? Oui, dans une remorque seulement.', 'Et s\'il pleut ? Vous pouvez annuler sans frais jusqu\'à 9 h.');
    assert.equal(quotes(fr, 'notre chien peut venir ?', GATES.auto), 'Oui, dans une remorque seulement.');
    const it = kb('Domande frequenti', '', 'Posso annullare la prenotazione? Rimborso completo fino a 7 giorni prima; dopo, potete spostare la data una volta.',
      'Quante persone ci sono per ogni corso? Al massimo 10, così ognuno lavora al proprio tavolo.', 'Le lezioni sono in inglese? Sì, tutte le lezioni sono in italiano e in inglese.');
    assert.match(quotes(it, 'se non possiamo venire posso annullare la prenotazione?'), /^Rimborso completo/);
    const de = kb('Häufige Fragen', '', 'Darf mein Hund mit? Ja, an der Leine.', 'Gibt es Parkplätze? Ja, direkt vor dem Haus.');
    assert.equal(quotes(de, 'darf der hund mit?'), 'Ja, an der Leine.');
  });
  it('near miss: a question running on in prose over several lines is no pair, and is quoted as before', () => {
    const prose = kb('About us', '', 'Why choose us? We have cleaned windows in Leeds', 'since 1998 and every visit is insured.');
    assert.match(quotes(prose, 'is every visit insured?'), /since 1998/);
    const sentences = prose.passages.flatMap((p) => prose.sentencesOf(p));
    assert.ok(sentences.some((s) => s.text === 'Why choose us?'));
  });
});

describe('the business\'s name in a title', () => {
  it('is the run of capitalised words the base never writes in lower case', () => {
    const passages = splitPassages('# Jumping Jacks Trampoline Park: Party Packages\n\nAll parties are held in our party room.\n\n## Prices\n\nA party costs £150.');
    assert.deepEqual([...businessNameTerms(passages, 'en')], ['jump', 'jack', 'trampolin', 'park'].map((w) => termOf(w)));
  });
  it('near miss: "Party Packages" is no name when the base writes "party", and one capitalised word is none', () => {
    assert.ok(![...businessNameTerms(splitPassages('# Parking\n\nFree for guests.'), 'en')].length);
    const passages = splitPassages('# Jumping Jacks Trampoline Park: Party Packages\n\nAll parties are held in our party room.');
    assert.ok(!businessNameTerms(passages, 'en').has(termOf('party')!));
  });
});

describe('the thing a price is for, named by a heading only weakly', () => {
  const park = kb('# Jumping Jacks Trampoline Park: Party Packages', '', '| | Bronze | Gold |', '|---|---|---|', '| Price | £150 | £300 |', '| Party bags | ✗ | ✓ |', '',
    '## Good to know', '', 'Parents are welcome to watch from the café.');
  it('"is parking free?" is not sent a price row under the business\'s name', () => {
    assert.equal(quotes(park, 'is parking free?', GATES.auto), '');
  });
  it('near miss: a heading that is no name still names the thing ("is parking free?" under "Parking")', () => {
    const hotel = kb('# The Old Mill Hotel', '', 'Rooms from £90 a night.', '', '## Parking', '', 'Free for guests, on the drive.');
    assert.match(quotes(hotel, 'is parking free?'), /Free for guests/);
  });
  const daycare = kb('Muddy Paws Daycare', '', 'BEFORE YOUR FIRST DAY', '- [ ] Book a free 2-hour trial session', '- [ ] Send us the vaccination card', '',
    'PRICES', 'Full day £32.', 'Half day £20.');
  it('a heading alone names the thing only with each of its words the base uses: "the first full day" is no trial session', () => {
    assert.doesNotMatch(quotes(daycare, 'is the first full day free?'), /trial session/);
  });
  it('near miss: the sentence naming the thing itself still answers', () => {
    assert.match(quotes(daycare, 'is the trial session free?'), /free 2-hour trial session/);
  });
  it('a price far from the words of the thing the sentence holds is another thing\'s price', () => {
    const gym = kb('## Payments', '', '2.1 Membership fees are taken by Direct Debit on the 1st of each month.', '',
      '2.2 If a payment fails, we will try again after 7 days and add a £5 admin charge.');
    assert.equal(quotes(gym, 'is there a free trial day', GATES.auto), '');
    const plumber = kb('Prezzi', '', 'Il preventivo per lavori grandi, come il rifacimento di un bagno, è gratuito e senza impegno.', '',
      'L\'uscita costa 40 € e comprende la prima mezz\'ora di lavoro; dopo si pagano 35 € l\'ora, più i pezzi.');
    assert.match(quotes(plumber, 'il preventivo è gratis?', GATES.auto), /preventivo per lavori grandi/);
  });
});

describe('the days a sentence names', () => {
  it('by name, by range, by the week or the weekend, every day: in three tiers', () => {
    assert.equal(tierOf(daysOf('Monday to Friday: 8:00 – 19:00'), 0), WEEKDAYS);
    assert.equal(tierOf(daysOf('Mo–Fr 9–18 Uhr, Samstag 8–13 Uhr'), 0), WEEKDAYS | SAT);
    assert.equal(tierOf(daysOf('Las clases se dan de lunes a sábado.'), 0), WEEKDAYS | SAT);
    assert.equal(tierOf(daysOf('Open Friday to Monday.'), 0), 16 | SAT | SUN | MON);
    assert.equal(tierOf(daysOf('Weekday parties after school start at 16:30.'), 1), WEEKDAYS);
    assert.equal(tierOf(daysOf("c'est conseillé le week-end"), 1), WEEKEND);
    assert.equal(tierOf(daysOf('Il self-service è aperto tutti i giorni.'), 2), EVERY_DAY);
  });
  it('near miss: "7 days before" is no week, a short form alone is no day, "do" is a word', () => {
    assert.equal(daysOf('We refund in full up to 7 days before your booking.'), 0);
    assert.equal(daysOf('Sat nav users: enter the postcode.'), 0);
    assert.equal(daysOf('What do we do?'), 0);
    assert.equal(tierOf(daysOf('Open 7 days a week.'), 2), EVERY_DAY);
  });
});

describe('a day asked is covered only by the sentences whose days hold it', () => {
  const parties = kb('Good to know', '', 'Parties run on Saturdays and Sundays at 10:00, 13:00 and 16:00. Weekday parties after school start at 16:30.');
  it('"a party on a wednesday" is the weekday parties, not the weekend times', () => {
    assert.match(quotes(parties, 'Can we do a party on a wednesday after school?', GATES.auto), /Weekday parties/);
    assert.doesNotMatch(quotes(parties, 'Can we do a party on a wednesday after school?'), /Saturdays and Sundays/);
  });
  it('near miss: a Saturday is still the weekend times', () => {
    assert.match(quotes(parties, 'what times can we have a party on a saturday'), /Saturdays and Sundays/);
  });
  it('a day named beats "every day" beside it; a German day is a day', () => {
    const laundry = kb('Orari', '', 'Il negozio è aperto dal lunedì al venerdì 8:00–19:30, sabato 8:30–13:00. Il self-service è aperto tutti i giorni dalle 7:00 alle 22:00, anche la domenica.',
      '', 'Prezzi', '', 'Una camicia lavata e stirata costa 3 €. Il lavaggio di un piumone costa 18 € e si ritira dopo due giorni.');
    assert.match(quotes(laundry, 'a che ora aprite il sabato'), /sabato 8:30/);
    const farm = kb('Öffnungszeiten', '', 'Der Laden ist von Dienstag bis Freitag von 9 bis 18 Uhr geöffnet.', 'Am Samstag haben wir von 8 bis 13 Uhr geöffnet.', '',
      'Gut zu wissen', '', 'Der Milchautomat ist rund um die Uhr geöffnet, auch an Feiertagen.', 'Bezahlen können Sie bar oder mit EC-Karte; am Automaten nur mit Münzen.');
    assert.match(quotes(farm, 'habt ihr am Mittwoch geöffnet?'), /Dienstag bis Freitag/);
    assert.doesNotMatch(quotes(farm, 'habt ihr am Mittwoch geöffnet?'), /Samstag/);
  });
  it('near miss: a day no sentence holds is still answered by the days kept ("open on Mondays?")', () => {
    const groomer = kb('Opening', '', 'We are open Tuesday to Saturday, 8:30am to 5pm.');
    assert.match(quotes(groomer, 'Are you open on Mondays?'), /Tuesday to Saturday/);
  });
});
