// Issue 35's tenth round (docs/spam.md, "Tenth round"): a fault found in the reader's site, a price quoted in an offer to
// nobody, a loan offered without checks, an income promised by the day, week or month, job scams in five more
// languages, offers and pitch asks read in more languages; each with the near-miss a customer, a supplier, a job seeker
// or a bank's customer writes with the same words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIntelligent, checkStandard } from '../src/pipeline/spam/index.ts';
import { MESSAGING_APP } from '../src/pipeline/spam/contact-routes.ts';
import { shapeFeatures } from '../src/pipeline/spam/shape.ts';
import { siteCritique } from '../src/pipeline/spam/site-critique.ts';
import { assertSignal, submission } from './spam-signal-assert.ts';

const shape = (text: string) => new Set(shapeFeatures(text, text.toLowerCase(), 0));
const signals = (message: string) => checkStandard(submission(message)).signals;

describe('web-form spam signals, tenth round', () => {
  it('site_critique: the fault found in your site, in the training parts\' languages; a customer\'s report of a broken page is not one', () => {
    for (const text of [
      'Hello, your website is not mobile friendly and it loads slowly.',
      'Guten Tag, Ihre Webseite rankt bei Google nur auf Seite 5.',
      'Bonjour, votre site n\'apparaît pas sur Google quand on cherche votre métier.',
      'Hola, su página no está adaptada a móviles.',
      'Buongiorno, il vostro sito non compare su Google Maps.',
      'Olá, o seu site não aparece nas pesquisas.',
      'Wij zagen dat uw website nauwelijks gevonden wordt.',
      'Merhaba, web siteniz Google\'da görünmüyor.',
      'Hi, I found 12 technical errors on the homepage.',
    ]) assert.ok(siteCritique(text.toLowerCase()), text);
    for (const text of [
      'Hi, the link in your newsletter gives a 404 - is the sale still on?',
      'Your website says you open at 9 on Sundays, is that right?',
      'I found your website through a friend and would like to book a table for 4.',
      'Ihre Webseite ist sehr schön, ich hätte gern einen Termin am Freitag.',
    ]) assert.equal(siteCritique(text.toLowerCase()), false, text);
  });

  it('site_critique flags with the offer that follows it; alone, or from a customer with a need of their own, it stays weak', async () => {
    await assertSignal('site_critique', [
      'Hi, your website looks outdated and isn\'t mobile friendly. We build modern, fast sites for small businesses. Shall I send some examples?',
      'Guten Tag, wir haben Ihre Webseite angesehen: Sie steht bei Google nur auf Seite 4. Gerne schicken wir Ihnen eine kostenlose Analyse.',
      'Dzień dobry, Państwa strona jest dopiero na czwartej stronie wyników. Chętnie przygotuję bezpłatną analizę.',
    ], [
      // A customer reporting a broken page, and one who praises the site.
      'Hi, the link in your newsletter for the spring sale gives a 404. Is the sale still on? I wanted the blue raincoat.',
      'Your new website looks lovely! Do you still do the Sunday roast for 6 people?',
    ], /fault found in your site/u);
    for (const message of [
      'Hi, your website looks outdated and isn\'t mobile friendly. We build modern, fast sites for small businesses. Shall I send some examples?',
      'Merhaba, web siteniz Google\'da görünmüyor. Aylık paketlerimizle sitenizi üst sıralara taşıyabiliriz. Bilgi almak ister misiniz?',
    ]) assert.ok(checkStandard(submission(message)).spam, message);
    // A customer who mentions the fault, alone or with a need of their own: the signal fires, weak, and nothing flags.
    for (const message of [
      'Hi, your site isn\'t mobile friendly, I had to use my laptop to find the opening hours. Thanks!',
      'Hi, your site isn\'t mobile friendly so I couldn\'t finish the booking form. Can I book a table for 4 on Friday at 7 by phone instead?',
      'Hola, su página no funciona bien desde el móvil. ¿Puedo hacer el pedido 10422 por teléfono?',
    ]) {
      const verdict = checkStandard(submission(message));
      assert.ok(verdict.signals.includes('site_critique'), `${message}: ${verdict.reason}`);
      assert.equal(verdict.spam, false, `${message}: ${verdict.reason}`);
      assert.equal((await checkIntelligent(submission(message), null)).spam, false, message);
    }
  });

  it('priced_offer: a price quoted in an offer to nobody; weak alone, a supplier with a named contact or quantities is left alone', () => {
    for (const message of [
      'We build modern websites starting at just $299! Mobile friendly, SEO ready, free domain for a year.',
      'Hi, we can help you get 5-star Google reviews from local accounts. 10 reviews from $49.',
      'Buenas, diseñamos tiendas online profesionales desde 199 €. ¿Le interesa?',
    ]) assert.ok(signals(message).includes('priced_offer'), message);
    // Issue 35's thirteenth round: build_pitch now flags the website pitch alone, so the reviews offer pins "weak alone".
    const alone = checkStandard(submission('Hi, we can help you get 5-star Google reviews from local accounts. 10 reviews from $49.'));
    assert.equal(alone.spam, false, `weak alone: ${alone.reason}`);
    for (const message of [
      // A customer quoting a price, a named supplier with quantities, a price without an offer.
      'Hello, I saw the blue sofa at £499 in your window. Do you deliver to Leeds on Saturday?',
      'Hello, Tom from Harrow Print here, we met at the trade fair. We print 500 menus for £85, delivered in 2 days. Shall I send a sample?',
      'The parking in front of the shop costs €2 an hour, just so you know for your customers.',
    ]) assert.ok(!signals(message).includes('priced_offer'), message);
  });

  it('loan_offer: a loan without the usual checks flags alone; a customer asking about their own loan or credit limit does not', async () => {
    await assertSignal('loan_offer', [
      'Szybka pożyczka bez BIK do 15 000 zł, decyzja w 10 minut. Złóż wniosek online.',
      'Potřebujete peníze? Půjčka až 80 000 Kč bez registru, vyřízení do 24 hodin.',
      'Offriamo prestiti tra privati da 3.000 a 200.000 euro, anche a protestati.',
      'Fast personal loans up to $5,000 with no credit check, money in your account today.',
    ], [
      'Hi, can I get a loan without a guarantor if I already bank with you? I would like to borrow £5,000 for a car.',
      'Please increase my credit limit to $1000, I have a trip next week.',
      'Hello, I paid off my loan last month without any problems. Could you send the closing statement for my records?',
    ], /loan offered without the usual checks/u);
    assert.ok(checkStandard(submission('Pożyczka bez zaświadczeń do 10 000 zł! Pieniądze na koncie jeszcze dziś.')).spam);
  });

  it('income promise: an income by the day, week or month in the training parts\' languages; a bakery\'s output or a wage by the hour is not one', () => {
    for (const message of [
      '¡Gana hasta 500 USD diarios con nuestra plataforma de inversión!',
      'Zarabiaj nawet 3000 zł tygodniowo z naszym systemem.',
      'Kripto ile günde 1500 TL kazanmak ister misiniz?',
      'Mit unserer Plattform verdienen Sie täglich bis zu 400 Euro.',
      'Earn up to 900 dollars a week from your phone.',
    ]) {
      const verdict = checkStandard(submission(message));
      assert.match(verdict.reason, /income promise/iu, message);
      assert.ok(verdict.spam, message);
    }
    for (const message of [
      'Hello, we make 200 loaves a day and are looking for a flour supplier near Leeds. Could you send prices?',
      'Hi, I earned £11 an hour at my last café job and can start on Monday. Is the barista role still open?',
      'Guten Tag, wir verdienen unser Geld mit Handwerk. Haben Sie am Samstag einen Termin frei?',
    ]) assert.doesNotMatch(checkStandard(submission(message)).reason, /income promise/iu, message);
  });

  it('job_offer reads German, Spanish, Portuguese, Malay and Urdu job scams; a job seeker in those languages is left alone', async () => {
    await assertSignal('job_offer', [
      'Hallo, Nebenjob von zu Hause: Apps testen und bis zu 250 € pro Tag verdienen. Keine Vorkenntnisse nötig. Schreiben Sie uns auf WhatsApp.',
      'Estamos contratando para trabajar desde casa, pago diario de 40 a 150 dólares. Escríbenos por WhatsApp.',
      'Vaga de emprego online, ganhe 200 reais por dia, sem experiência. Chama no WhatsApp.',
      'Kerja sambilan dari rumah, gaji harian RM100. Tiada pengalaman diperlukan. Hubungi kami di WhatsApp.',
      'گھر بیٹھے کام کریں، روزانہ 3000 روپے۔ واٹس ایپ پر رابطہ کریں۔',
    ], [
      // Job seekers and an employer's ordinary notice, in the same languages.
      'Guten Tag, ich suche einen Nebenjob am Wochenende und habe zwei Jahre im Service gearbeitet. Haben Sie eine Stelle frei? Mein Lebenslauf kommt per E-Mail.',
      'Hola, busco trabajo a media jornada en su tienda. Tengo experiencia en atención al cliente. ¿Puedo pasar el lunes con mi currículum?',
      'Olá, procuro trabalho aos fins de semana na vossa pastelaria. Posso enviar o meu currículo?',
    ], /job offered/u);
    assert.ok(MESSAGING_APP.test('واٹس ایپ پر رابطہ کریں'));
  });

  it('the shape features read offers and pitch asks in more languages; a customer\'s own request is no offer', () => {
    for (const [text, feature] of [
      ['Gerne schicken wir Ihnen den Bericht zu.', 'h:offer'],
      ['Sitenizi üst sıralara taşıyabiliriz.', 'h:offer'],
      ['Chętnie przygotuję bezpłatną wycenę.', 'h:offer'],
      ['Czy mogę ją przesłać?', 'h:pitch'],
      ['Θα ήθελα να σας προτείνω μια συνεργασία. Να σας στείλω προσφορά;', 'h:pitch'],
      ['हम सबसे कम कीमत में ऐप बनाते हैं।', 'h:offer'],
      ['We design websites from $299, interested?', 'h:priced_offer'],
      ['Your website is not mobile friendly.', 'h:critique'],
    ] as const) assert.ok(shape(text).has(feature), `${feature}: ${text}`);
    for (const [text, feature] of [
      ['Ich möchte einen Termin am Freitag, geht das?', 'h:offer'],
      ['Can you send me the price list? We need 40 chairs.', 'h:priced_offer'],
      ['I bought the lamp for £45 last week and it does not work. Could you replace it?', 'h:priced_offer'],
    ] as const) assert.equal(shape(text).has(feature), false, `${feature}: ${text}`);
  });
});
