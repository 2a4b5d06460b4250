// Issue 35's twelfth round (docs/spam.md, "Twelfth round"): growth_pitch, an unasked offer of more business for the
// reader (more customers, sales, leads or bookings) with a call or a reply asked for, support_pitch, a problem of the
// reader's with a number to call about it, and return_promise, a percentage return by the day, week or month; each example with the near-miss a supplier, a student, a freelancer or a
// customer writes with the same words. The examples are written for this test,
// in the shapes of the training and validation parts' pitches (no held-out row).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStandard } from '../src/pipeline/spam/index.ts';
import { assertFlagsAlone, assertSignal, submission } from './spam-signal-assert.ts';

const PITCHES = [
  'Hi, we help independent shops like yours get 20-30 new customers a month through local ads. Do you have 15 minutes for a quick call this week?',
  'Guten Tag, mit unserem System gewinnen Betriebe wie Ihrer jeden Monat deutlich mehr Anfragen. Hätten Sie Zeit für ein kurzes Gespräch?',
  'Hola, ayudamos a clínicas a conseguir más pacientes con anuncios en Google. ¿Le parece bien una llamada de 10 minutos?',
  'Bonjour, nous aidons les artisans à trouver de nouveaux clients chaque semaine. Un court échange de 15 minutes vous conviendrait ?',
  'Buongiorno, possiamo portarvi più clienti con Instagram. Posso chiamarvi domani?',
  'Hej! Vi hjälper salonger att få fler kunder via sociala medier. Kan jag ringa dig på torsdag för ett kort samtal?',
  'Здравствуйте! Мы приводим больше клиентов для салонов красоты. Можно созвониться на 10 минут?',
  '您好，我们可以帮助贵公司获取更多客户，方便电话沟通一下吗？',
  // The reply asked for in the words of the training parts' pitches.
  'Want more bookings for your studio? Reply to this message and I will explain how.',
  'Wij bezorgen kappers elke week nieuwe klanten. Interesse? Bel 020 555 0101.',
];

describe('web-form spam signals, twelfth round', () => {
  it('growth_pitch: more business promised to the reader with a call asked for, in the training parts\' languages; the twins are left alone', async () => {
    await assertSignal('growth_pitch', PITCHES, [
      // A supplier of the owner's own trade asking to drop by: a call asked for, no growth promised.
      'Hello, we are a small coffee roastery and supply beans to cafés in the area. Could I call you for 10 minutes next week to arrange some free samples?',
      // A student's twenty minutes.
      'Hi, I am a marketing student writing my dissertation on small shops. Would you have 20 minutes for a short call? I would share the results.',
      // A freelancer looking for new clients: the sender's own growth.
      'Hi, I am a freelance bookkeeper looking for new clients in Leeds. Happy to have a quick call if you ever need help with payroll.',
      'Hallo, ich bin freiberufliche Übersetzerin in Köln und suche neue Kunden. Hätten Sie Zeit für ein kurzes Gespräch?',
      // A supplier's offer to a class of buyers: "for new customers".
      'Hello, our bakery supplies bread to cafés nearby, with 10% off for new customers. Can I call you tomorrow to tell you more?',
      // A customer who wants more customers asks the owner, an agency, for what it sells.
      'Hi, we would like to get more customers for our bakery. Could you call us for 15 minutes to explain your advertising packages?',
    ], /unasked offer of more business/u);
  });

  it('growth_pitch needs both halves: a promise with no ask, or an ask with no promise, does not fire', () => {
    for (const message of [
      'We have helped over 300 salons get more bookings with our software.',
      'Hätten Sie diese Woche 15 Minuten für ein kurzes Gespräch über die Lieferung?',
    ]) assert.ok(!checkStandard(submission(message)).signals.includes('growth_pitch'), message);
  });

  it('growth_pitch flags alone under both strategies (a pitch that carries no other sign)', async () => {
    await assertFlagsAlone('growth_pitch', 'Hallo zusammen, wir sorgen dafür, dass Praxen wie Ihre planbar mehr Patienten bekommen. Hätten Sie nächste Woche 15 Minuten?');
  });

  it('support_pitch: a problem of yours and a number to call about it; a customer\'s own problem with a call-back number is left alone', async () => {
    await assertSignal('support_pitch', [
      'Accounting software not opening after the update? Call our certified team now at +1 (888) 410-2276, available 24/7.',
      'Problème avec votre box internet ? Contactez le service dépannage au 09 70 44 18 26, ouvert 7j/7.',
      '¿Problemas con su correo? Llame ahora al +34 900 831 224, técnicos disponibles las 24 horas.',
      'Probleme mit Ihrem Drucker? Rufen Sie sofort unsere Techniker unter 0800 555 0199 an.',
    ], [
      // A customer's own problem and a number to call back.
      'Hi, my printer is not printing since your engineer came round. Please call me on +44 7700 900 418 when you can.',
      'Bonjour, problème avec votre site : impossible de payer. Appelez-moi au 06 18 44 92 05 svp.',
      // A question about the owner's own service and the sender's number, no problem of the reader's.
      'Is your repair shop open on Saturday? I can be reached on 0161 496 0018 all morning.',
    ], /problem of yours/u);
  });

  it('return_promise: a percentage return by the day, week or month beside investing or profit; a customer\'s own rate, a discount and a yearly rate are left alone', async () => {
    await assertSignal('return_promise', [
      'Our AI trading desk pays 2.5% per day on every deposit. Withdraw whenever you like.',
      'Invierte desde 100 USDT y recibe un 4% diario de rentabilidad.',
      'Инвестируйте в наш фонд и получайте 3% в день.',
    ], [
      'Why is the interest on my card 2% per month? It seems higher than last year.',
      'Members of the club get 10% off monthly on all coffee beans.',
      'Our savings account pays 2.5% per year, fixed for two years. Pop in to any branch.',
    ], /return promised/u);
  });
});

