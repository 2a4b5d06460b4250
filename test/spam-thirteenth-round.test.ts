// Issue 35's thirteenth round (docs/spam.md, "Thirteenth round"): build_pitch, an unasked offer to build the reader a site,
// a shop or an app on a pitch's terms; rank_promise, a top place on a search engine promised; recovery_offer, money lost
// to a fraud offered back; and, in older signals, support_pitch's device or account of yours that fails or has lapsed and
// growth_pitch's Arabic call with "for" joined to it. Each example has the near-miss a freelancer, a studio or a customer
// writes with the same words. The examples are written for this test, in the shapes of the training and validation parts'
// pitches (no held-out row).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkStandard } from '../src/pipeline/spam/index.ts';
import { assertFlagsAlone, assertSignal, submission } from './spam-signal-assert.ts';

const fires = (signal: string, message: string) => checkStandard(submission(message)).signals.includes(signal);

describe('web-form spam signals, thirteenth round', () => {
  it('build_pitch: we build sites, shops or apps, on a pitch\'s terms; a freelancer showing her own work, a referred studio and customers are left alone', async () => {
    await assertSignal('build_pitch', [
      'Hello, we build fast WordPress websites for dentists and clinics, delivered in 10 days. Shall I send you a free mockup?',
      'Guten Tag, wir erstellen moderne Onlineshops für Einzelhändler zum Festpreis. Gern schicken wir Ihnen Beispiele.',
      'Buongiorno, realizziamo siti e negozi online per ristoranti a prezzi accessibili. Vuole vedere qualche esempio?',
      'Hola, desarrollamos aplicaciones para gimnasios con reservas y pagos, listas en 6 semanas.',
      'Dzień dobry, tworzymy nowoczesne sklepy internetowe dla małych firm. Mogę przesłać kilka realizacji?',
      'Здравствуйте! Разработаем сайт для вашей компании под ключ, сроки от 10 дней.',
    ], [
      // A freelancer who shows her own work on her own site.
      'Bonjour, je suis Léa, développeuse web à Nantes. Je crée des sites pour des associations, mes réalisations sont sur lea-dev.fr. Bonne journée !',
      // A studio that says who sent it and gives its company number.
      'Hi, I run a small design studio in Hull (Company No. 10482733). Priya at the bakery next door said you were thinking of a new look, and we could build you a new website in a few weeks. Examples on request.',
      // A customer who needs a site built: the sender's own need.
      'Hello, we need a simple website for our bakery built in 2 weeks. Do you build websites, and what would it cost?',
      // An agency that builds apps itself and needs the owner's help: the sender's own need.
      'Hi, we design apps for our own clients but we need someone to build the back office within 3 weeks. Could you quote?',
      // A customer asking whether the owner builds shops: no "we build".
      'Do you also make online shops? A friend recommended you and I sell handmade candles.',
    ], /offer to build you a site or an app/u);
  });

  it('build_pitch needs its terms: "we build websites" alone, with no time, price, free draft, examples or ask, does not fire', () => {
    assert.ok(!fires('build_pitch', 'We build websites and have done so since 2009.'));
    assert.ok(fires('build_pitch', 'We build websites, delivered in 10 days.'));
  });

  it('build_pitch flags alone under both strategies (a pitch that carries no other sign)', async () => {
    await assertFlagsAlone('build_pitch', 'Hej, vi bygger hemsidor för frisörer, klara på 14 dagar.');
  });

  it('rank_promise: the first page or the top ten of a search engine; a customer\'s own site and own need are left alone', async () => {
    await assertSignal('rank_promise', [
      'We can put your business on the first page of Google within 60 days.',
      'Wir bringen Ihre Firma auf die erste Seite bei Google, garantiert.',
      'Nous plaçons votre entreprise en première page de Google en trois mois.',
      'Выведем вашу компанию в топ-10 Яндекса за месяц.',
    ], [
      // A customer asking about their own site.
      'How long does it usually take to get my website on the first page of Google? Just curious before I sign up.',
      // A customer who wants it asks the owner, an SEO agency, for a quote.
      'Hi, we would like to reach the first page of Google for "florist Leeds". Could you send us a quote?',
    ], /top place on a search engine/u);
  });

  it('rank_promise: a customer whose agency put them on the first page is telling, not promising', () => {
    assert.ok(!fires('rank_promise', 'Our SEO agency put us on the first page of Google last year; can you quote for new photos?'));
    assert.ok(fires('rank_promise', 'Our SEO agency puts clients on the first page of Google within a quarter.'));
  });

  it('rank_promise needs the engine beside the position: a first page and Google far apart do not fire', () => {
    assert.ok(!fires('rank_promise', 'The first page of the brochure is missing from the PDF you sent. By the way, I found your shop through a friend who works at a garage in town, not on Google.'));
  });

  it('recovery_offer: money lost to a fraud offered back; the victim asking for help and a customer thanking for money recovered from an insurer are left alone', async () => {
    await assertSignal('recovery_offer', [
      'Scammed by a fake broker? Our investigators recover lost funds and crypto. Free case review.',
      'Opfer von Anlagebetrug? Wir holen Ihr Geld zurück, Erstberatung kostenlos.',
      'Victime d\'une arnaque au trading ? Nous récupérons vos fonds perdus.',
    ], [
      // The victim, who speaks of their own money.
      'Hello, I lost my savings to a crypto scam last year. Do you know a lawyer who could help me recover the money?',
      // Money recovered from an insurer: no fraud named.
      'Thanks to your advice we managed to recover the money from the insurer after the flood.',
    ], /money lost to a fraud offered back/iu);
  });

  it('support_pitch: a device or account of yours said to fail or to have lapsed, and a number to call; the customer\'s own is left alone', async () => {
    await assertSignal('support_pitch', [
      'Il tuo computer non funziona? Chiama subito i tecnici al numero 02 8899 4410.',
      'Your antivirus subscription has expired. Call +1 (866) 410-2290 now to renew it.',
    ], [
      // The customer's own, with a call-back number.
      'My order has expired in the basket twice now. Please call me on 07700 900 233.',
      'Il mio router non funziona da ieri, potete chiamarmi al 333 123 4567?',
    ], /problem of yours/u);
  });

  it('growth_pitch reads an Arabic call with "for" joined to it ("لمكالمة"); a supplier asking for a call with no growth promised does not fire', () => {
    assert.ok(fires('growth_pitch', 'مرحبا، نساعد المطاعم على زيادة مبيعاتها عبر الإعلانات. هل أنت متاح لمكالمة قصيرة غدا؟'));
    assert.ok(!fires('growth_pitch', 'مرحبا، نحن مخبز محلي ونورد الخبز للمقاهي. هل أنت متاح لمكالمة قصيرة غدا؟'));
  });
});
