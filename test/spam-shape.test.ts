// The shape features the text classifier reads (src/pipeline/spam/shape.ts): each on an outreach message and on its
// legitimate twin, a supplier introduction or an enquiry written with the same words; then the shipped classifier,
// which learnt them, on pairs that differ in shape only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shapeFeatures } from '../src/pipeline/spam/shape.ts';
import { defaultClassifier } from '../src/pipeline/spam/classifier.ts';
import { checkIntelligent } from '../src/pipeline/spam/index.ts';
import { submission } from './spam-signal-assert.ts';
import { readFileSync } from 'node:fs';
import { decodeWeights, type SpamModelFile } from '../src/pipeline/spam/model-file.ts';
import { hashFeature } from '../src/pipeline/spam/text.ts';
import { DEFAULT_MODEL_URL } from '../src/pipeline/spam/classifier.ts';

const shape = (text: string, urls = 0) => new Set(shapeFeatures(text, text.toLowerCase(), urls));

/** Fires on each example, not on its twin; the twin then has the `twin` features. */
function pinned(feature: string, pairs: ReadonlyArray<[spam: string, twin: string]>): void {
  for (const [spam, twin] of pairs) {
    assert.ok(shape(spam).has(`h:${feature}`), `${feature} should fire on: ${spam} (${[...shape(spam)].join(', ')})`);
    assert.ok(!shape(twin).has(`h:${feature}`), `${feature} fired on the twin: ${twin} (${[...shape(twin)].join(', ')})`);
  }
}

describe('shape features', () => {
  it('offer_to_nobody: an offer with no named person and no referral; the supplier who names how they came to write is personal', () => {
    pinned('offer_to_nobody', [
      ['Hello, we offer website design and SEO for small businesses. Get more customers online!', 'Hello, your colleague James mentioned at the trade fair that you need a new website. We offer design and SEO; could you send the page count?'],
      ['Wir bieten hochwertige Gastartikel auf deutschen Magazinen an.', 'Guten Tag Frau Schulz, Herr Maier hat uns empfohlen. Wir bieten Flyerdruck ab 89 € an.'],
    ]);
  });

  it('discovery_to_nobody: "I came across your website" from nobody; the same words from a named sender with a referral are not', () => {
    pinned('discovery_to_nobody', [
      ['Hi there, I came across your website and I think there is a big opportunity for you.', 'Hi, I\'m Chloe Evans. Your accountant Karen recommended me, and I came across your website while checking your services.'],
    ]);
  });

  it('pitch_without_need: asks for a reply to the pitch and says nothing the sender needs; an enquiry asking about its own need is not', () => {
    pinned('pitch_without_need', [
      ['Are you interested? Reply YES and I will send you the details.', 'I\'d like a quote for 40 t-shirts by 10 May. Let me know if you need the logo file.'],
      ['Would you be open to a quick call?', 'Are you free on 21 September? We need a photographer for 80 guests.'],
    ]);
  });

  it('generic_greeting_offer: "Dear website owner" with an offer; a named greeting with the same offer is not', () => {
    pinned('generic_greeting_offer', [
      ['Dear website owner, our team can get you more customers from Google.', 'Dear Ms Okafor, our team can quote for the gift boxes you asked about.'],
      ['Hi there, we offer monthly maintenance for WordPress sites.', 'Hi Julia, we offer monthly maintenance, as you asked at the meetup.'],
    ]);
  });

  it('link_with_offer: a link beside an offer, with no question; a link in a question is not', () => {
    const spam = shapeFeatures('We offer cheap backlinks, get started here', 'we offer cheap backlinks, get started here', 1);
    const twin = shapeFeatures('Do you offer this in blue? Same as the one here', 'do you offer this in blue? same as the one here', 1);
    assert.ok(spam.includes('h:link_with_offer'));
    assert.ok(!twin.includes('h:link_with_offer'));
  });

  it('named, referral, concrete, need: what introductions and enquiries have and outreach lacks', () => {
    pinned('named', [['Hi Carmen, Pablo gave us your contact. Kind regards, Luis Ortega', 'Hi there, we make handmade tableware. Kind regards, Team Ceramics']]);
    pinned('referral', [['Dear Mr Novak, thank you for visiting our stand at the fair.', 'Dear business owner, thank you for reading this message.']]);
    pinned('concrete_question', [['Could you deliver 120 cupcakes on Saturday?', 'Interested? Reply YES for a free audit, no obligation?']]);
    pinned('personal_concrete', [['I\'m Tom Reid from Hillside Mill. Could I drop off two 5 kg sample bags next week?', 'We mill flour. Could we send samples next week?']]);
  });

  it('identity and identified_offer: a registration number or a street address beside an offer; the same offer from nowhere is not', () => {
    pinned('identity', [
      ['We are a joinery making oak stair treads. Workshop at Unit 4, Bridge Street Yard.', 'We are a joinery making oak stair treads. Workshop near the bridge.'],
      ['Wir liefern Fahrradständer. USt-IdNr. DE 287 553 104.', 'Wir liefern Fahrradständer. Fragen Sie nach unserer Nummer.'],
      ['Nous offrons un échantillon gratuit. Atelier : 14 rue des Tanneurs, Angers.', 'Nous offrons un échantillon gratuit. Atelier à Angers.'],
      ['Possiamo portarvi una degustazione gratuita. P.IVA 04518720655.', 'Possiamo portarvi una degustazione gratuita. Partita da Napoli.'],
      // An order of 12 boxes is a quantity, not an address: "12 boxes on Friday" names no street.
      ['We mill flour at 9 Magdalen Street.', 'Could you send 12 boxes on Friday?'],
    ]);
    pinned('identified_offer', [
      ['Hello, we offer a free deep clean of one meeting room. We are at 22 Dawson Road, MK1 1LH.', 'Hello, we offer a free deep clean of one meeting room. We are local.'],
      // With a guarantee of results the address no longer vouches for the offer.
      ['Dzień dobry, we offer cleaning for offices. NIP 735 288 41 07.', 'Dzień dobry, we offer guaranteed first page results. NIP 735 288 41 07.'],
    ]);
  });

  it('pressure and pressured_offer: a guarantee, a deadline or "order now" beside an offer; a customer asking about a guarantee is not pushing one', () => {
    pinned('pressure', [
      ['We can get you in the top 3 in 30 days, guaranteed.', 'Is the boiler still under warranty after the repair?'],
      ['Wir bringen Sie garantiert auf Seite 1.', 'Wir möchten wissen, ob die Garantiezeit zwei Jahre beträgt.'],
      ['Limited offer this week: full redesign for $499.', 'Is the offer on the sofa still on this week?'],
    ]);
    pinned('pressured_offer', [
      ['We offer backlinks from real blogs. Order now!', 'I\'d like to order now so it ships on Monday. Could you confirm the price of the 12 boxes?'],
    ]);
  });

  it('reads only the first 2,000 characters, so a 60 KB text costs what 2 KB does', () => {
    const long = `${'a'.repeat(60_000)} Dear website owner, we offer SEO.`;
    assert.equal(shapeFeatures(long, long, 0).length, 0);
  });
});

describe('the classifier reads the shape', () => {
  it('learnt the shapes\' direction: outreach shapes speak for spam, a named sender, a referral and a concrete need against', () => {
    const model = JSON.parse(readFileSync(DEFAULT_MODEL_URL, 'utf8')) as SpamModelFile;
    const weights = decodeWeights(model.weights, 2 ** model.hashBits);
    const weight = (feature: string) => weights[hashFeature(`h:${feature}`)]!;
    for (const feature of ['offer_to_nobody', 'discovery_to_nobody', 'pitch_without_need', 'offer', 'benefit', 'pressure']) assert.ok(weight(feature) > 0.5, `${feature}: ${weight(feature)}`);
    for (const feature of ['need', 'concrete', 'concrete_question', 'referral', 'named', 'identity']) assert.ok(weight(feature) < -0.3, `${feature}: ${weight(feature)}`);
  });

  it('scores an outreach pitch above the introduction that shares its words but names the person, the referral and the need', () => {
    const classifier = defaultClassifier();
    const pairs: Array<[string, string]> = [
      [
        'Hi there, we are a packaging company. We offer custom boxes for businesses like yours. Interested? Reply YES for a free quote.',
        'Dear Ms Okafor, James mentioned at the trade fair that you need new gift boxes. We make custom boxes in runs from 250. Could you send the dimensions so I can quote?',
      ],
      [
        'Hello team, I came across your website and we can help you get more customers. Would you be open to a quick call?',
        'Hello Iain, I came across your website after your neighbours at the Kelvin Bakery recommended you. Could you do a site visit on Thursday for 2 rooms?',
      ],
    ];
    for (const [outreach, introduction] of pairs) {
      assert.ok(classifier.probability(outreach) > classifier.probability(introduction), `${outreach} ≤ ${introduction}`);
    }
  });

  it('leaves the introduction of the pair to the inbox under intelligent', async () => {
    const verdict = await checkIntelligent(submission('Dear Ms Okafor, James mentioned at the trade fair that you need new gift boxes. We make custom boxes in runs from 250. Could you send the dimensions so I can quote? Kind regards, Tom Reid'), null);
    assert.equal(verdict.spam, false, verdict.reason);
  });
});
