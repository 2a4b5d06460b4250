// Issue 35's eighth round (docs/spam.md, "Eighth round"): trade_advert, the phrase fixes and additions, the support line
// read either way round, each with the near-miss a customer, a supplier or a fan writes with the same words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIntelligent, checkStandard } from '../src/pipeline/spam/index.ts';
import { COLD_PITCH_WEIGHT, TRADE_ADVERT_WEIGHT } from '../src/pipeline/spam/signals/cold-pitch.ts';
import { assertSignal, submission } from './spam-signal-assert.ts';

describe('web-form spam signals, eighth round', () => {
  it('trade_advert: a spam trade in a short advert that names no one and asks nothing of its own', async () => {
    await assertSignal('trade_advert', [
      'Kredit ohne Schufa bis 25.000 € – Zusage in wenigen Minuten, auch für Rentner und Studenten. Antrag online: https://kredit-blitz.example',
      'Luxury replica handbags and watches, 1:1 copy of the originals, shipped discreetly to Europe and the US. Browse the catalogue: https://bag-outlet.example',
      'Casino online con 300 giri gratis e bonus di benvenuto del 150%. Prelievi immediati, iscriviti subito: https://giri-vincenti.example',
      'Your domain will be suspended for non-payment in 24 hours. Keep your website and e-mail running: https://domain-keep.example/pay',
    ], [
      // The trade asked about: a question of the sender's own.
      'Do you accept payment through a private lender for the kitchen? Our bank said no and a friend suggested it.',
      // A customer whose message names a trade beside a need and a detail of their own.
      'My order 44182 was paid with a loan from Klarna, can you tell me if it has gone through? It says bad credit on the app.',
      // Too short to be an advert: a request to an assistant, a comment signed with kisses.
      'what game has the best odds at a casino',
      'This song means everything to me, thank you so much for it xxx',
    ], /short advert/i);
  });

  it('trade_advert weighs like cold_pitch: with a strong trade phrase it flags, with a weak phrase alone nothing fires', () => {
    assert.equal(TRADE_ADVERT_WEIGHT, COLD_PITCH_WEIGHT);
    const weak = checkStandard(submission('Best prices on office chairs this month, free delivery on all orders across the country. See the range: https://chairs.example'));
    assert.ok(!weak.signals.includes('trade_advert'), weak.reason);
    assert.equal(weak.spam, false, weak.reason);
    const pitched = checkStandard(submission('We are a leading SEO company. We can get your website on the first page of Google. Interested?'));
    assert.ok(pitched.signals.includes('cold_pitch') && !pitched.signals.includes('trade_advert'), `one of the two, not both: ${pitched.reason}`);
  });

  it('outreach: one part of the template is now enough alone under standard; the discovery without a pitch is not', () => {
    const pitch = checkStandard(submission('Hello, I just visited your website and it could be bringing you more customers every month with a few changes to the homepage.'));
    assert.ok(pitch.signals.includes('outreach') && pitch.spam, pitch.reason);
    for (const message of [
      'Hello, I just visited your website and could not find your opening hours for Sunday. Are you open?',
      'I came across your website while looking for a wedding photographer. Are you free on 14 June?',
    ]) assert.equal(checkStandard(submission(message)).spam, false, message);
  });

  it('a link the message never mentions flags beside a throwaway domain or generic praise; a site the message names does not', () => {
    for (const message of [
      'Top deals on garden furniture, huge savings on every set. Have a look: https://patio-outlet-24.shop',
      'Great post, really informative. More on this topic here: https://wellness-tips-daily.net',
    ]) {
      const verdict = checkStandard(submission(message));
      assert.ok(verdict.signals.includes('stranger_link') && verdict.spam, `${message}: ${verdict.reason}`);
      assert.match(verdict.reason, /beside (?:generic praise|a throwaway domain)/u);
    }
    for (const message of [
      'Our new bakery site is rosesbakery.shop, could you link to it from your suppliers page? WhatsApp me on 07700 900123.',
      'Great post, really informative. I took a photo of my own roses after reading it: https://imgur.com/a/r0ses',
      'Hello from the Sunny Lounge team! Our garden furniture shop has moved to https://sunny-lounge.shop, please update your suppliers list.',
    ]) assert.equal(checkStandard(submission(message)).spam, false, message);
  });

  it('a French "spécialisée" is not "cialis", and "xxx" under a message is kisses', async () => {
    for (const message of [
      'Bonjour, je suis traductrice indépendante, spécialisée dans le tourisme et la gastronomie. Si vous souhaitez une version anglaise de votre carte, je peux vous faire un devis. Cordialement, Anne Morel',
      'Thank you so much for the flowers for my mum, they arrived on time and she loved them xxx',
    ]) {
      const standard = checkStandard(submission(message));
      assert.ok(!standard.signals.includes('spam_phrases'), `${message}: ${standard.reason}`);
      assert.equal((await checkIntelligent(submission(message), null)).spam, false, message);
    }
    assert.ok(checkStandard(submission('Buy cialis and viagra online, no prescription needed')).signals.includes('spam_phrases'));
    assert.ok(checkStandard(submission('hot xxx videos free every day')).signals.includes('spam_phrases'));
  });

  it('"account manager" is a crypto scheme only when it manages the reader\'s money', () => {
    const supplier = checkStandard(submission("Good morning, I'm the new account manager for Fernley Foods in your area, taking over from Paul. Your prices stay the same and I'll visit on Tuesday."));
    assert.ok(!supplier.signals.includes('spam_phrases'), supplier.reason);
    const scheme = checkStandard(submission('I earn 4% a day on crypto thanks to my account manager, Mrs Helen Ford. Message her on WhatsApp.'));
    assert.ok(scheme.signals.includes('spam_phrases'), scheme.reason);
  });

  it('loans and link selling in the languages the lists lacked; their twins do not fire', () => {
    for (const message of [
      'Oferim credite rapide pentru orice persoană, aprobare în aceeași zi.',
      "Je suis un particulier et j'accorde des prêts à toute personne honnête.",
      'Sprzedajemy pakiety linków z portali branżowych, od 20 zł za link.',
      'Ich würde gerne einen Gastbeitrag mit Link auf Ihrem Blog veröffentlichen.',
      'Δάνεια χωρίς δικαιολογητικά, έγκριση αμέσως.',
    ]) assert.ok(checkStandard(submission(message)).signals.includes('spam_phrases'), message);
    for (const message of [
      'Bună ziua, aș dori o verificare a facturii din luna trecută.',
      'Bonjour, le prêt de la salle pour samedi est-il toujours possible ?',
      'Dzień dobry, czy link do sklepu działa? Nie mogę otworzyć strony.',
      'Δάνεια για σπουδές: έχετε ενημερωτικό φυλλάδιο για τους φοιτητές;',
    ]) assert.ok(!checkStandard(submission(message)).signals.includes('spam_phrases'), message);
  });

  it('support_number reads the support line before the brand too ("Assistenza clienti Binance")', async () => {
    await assertSignal('support_number', [
      'Assistenza clienti Coinbase Italia, numero verde 800 555 019: sblocco wallet e rimborsi, 24 ore su 24.',
      'Soporte técnico Norton: si su antivirus caducó llame al +1 888 555 0142, técnicos disponibles las 24 horas.',
    ], [
      // A customer who called the support line and gives their own number to be called back.
      'Hola, llamé al soporte de PayPal y me dijeron que el pago está en su lado. ¿Me pueden llamar al 612 555 019?',
      'Salve, il servizio clienti di Amazon dice che il pacco è stato consegnato a voi. Potete controllare? Ordine 55120.',
    ], /support line/i);
  });
});
