// Issue 35's third round: the signals written against the validation parts' misses (scripts/spam-validation-misses.ts),
// each on its examples and on the near-misses a customer, student or job seeker writes with the same words.
import { describe, it } from 'node:test';
import { assertSignal } from './spam-signal-assert.ts';

describe('web-form spam signals, third round', () => {
  it('trade_link: a spam trade named together with the way to buy it', async () => {
    await assertSignal('trade_link', [
      'Prestiti veloci senza busta paga. Richiedi ora: prestito-facile.online',
      'Replica watches, 1:1 copy, Swiss movement. WhatsApp for the catalogue.',
      'I am a private lender offering loans from $5,000. Email me at lender.fastfunds@gmail.com',
      'Online casino: 150 free spins for new players at https://spin-royal.vip',
    ], [
      'Our new bakery site is rosesbakery.shop – could you link to it from your suppliers page? WhatsApp me on 07700 900123.',
      'Do you sell replica 1950s radios? Call me on 07700 900123.',
      'Is the payday loans advice leaflet still available? My email is anna.k@gmail.com',
    ], /offered with/i);
  });

  it('outreach: "I looked at your website", a pitch about it and an offer to send something, in more languages', async () => {
    await assertSignal('outreach', [
      'Hola, he revisado su página web y he detectado errores que le hacen perder clientes potenciales. ¿Le envío un informe gratuito?',
      'Salve, ho dato un\'occhiata al vostro sito e non compare tra i primi risultati su Google. Vi invio un\'analisi gratuita?',
      'Hallo, ich habe mir Ihre Webseite angesehen: sie wird bei Google kaum gefunden. Darf ich Ihnen eine kostenlose Analyse schicken?',
      'Здравствуйте! Я посмотрел ваш сайт, он плохо продвигается. Прислать бесплатный аудит?',
      'Bonjour, en parcourant votre site, j\'ai vu que vous n\'êtes pas sur Google Maps. Je vous appelle quand ?',
    ], [
      'Hola, he revisado su página web y no encuentro el horario de la tienda. ¿Abren el domingo?',
      'Ho visto il vostro sito: posso prenotare un tavolo per sabato sera?',
      'Ich habe mir Ihre Webseite angesehen – darf ich Ihnen meine Bewerbung als Koch schicken?',
      'Я посмотрел ваш сайт, но не нашёл цены. Можно прислать прайс?',
    ], /outreach template/i);
  });

  it('spam_phrases: the trades in more languages', async () => {
    await assertSignal('spam_phrases', [
      'Prestiti veloci senza busta paga e senza garanzie.', 'Hausarbeit schreiben lassen? Unsere Ghostwriter erstellen Ihre Bachelorarbeit.',
      'Borse firmate a prezzi di fabbrica!', 'Il suo pacco è in giacenza: spese di spedizione di 1,99 €.',
      'Our recovery experts can get your funds back. No recovery, no fee.', 'Мы выведем ваш сайт в топ-10 Яндекса.',
      'Заработок на криптовалюте от 50 000 рублей в неделю.', 'Wij zorgen voor een plek op pagina 1 van Google met onze SEO-pakketten.',
    ], [
      'Ho un prestito con la banca, posso pagare il corso a rate?', 'Ich schreibe meine Bachelorarbeit über Familienbetriebe – darf ich Sie interviewen?',
      'Il mio pacco non è ancora arrivato, potete controllare?', 'I lost money to a scam last year, so can I pay by invoice rather than by card?',
      'Можно оплатить криптовалютой?', 'Staat uw winkel op pagina 1 van de gids? Ik zoek uw adres.',
    ], /spam phrases?:/i);
  });

  it('support_number and form_blast in more languages', async () => {
    await assertSignal('support_number', ['¿Problemas con tu cuenta de Binance? Llama al número de atención al cliente +34 900 555 123, soporte 24 horas.'], [
      'Llamé al servicio de atención al cliente de Binance (+34 900 555 123) y me dijeron que les escriba a ustedes. ¿Pueden ayudarme?',
    ], /support line/i);
    await assertSignal('form_blast', ['Guten Tag, Sie lesen gerade diese Nachricht – so erreichen wir Millionen Firmen.'], [
      'Lesen Sie gerade meine Nachricht? Ich habe schon dreimal geschrieben.',
    ], /mass contact-form/i);
  });
});
