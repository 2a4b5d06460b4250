// A spam trade or sales phrase in the shape of a cold pitch: the message offers something (a service, a generic
// benefit, a free audit, "interested?") to nobody in particular (no named person, no referral) and states no need of
// its own and nothing concrete (no quantities, dates, order numbers or registered address). Either half alone is what honest messages do:
// a customer names "payday loans" while asking about their own account; a supplier introduces its products to "Dear
// Sir or Madam" without a trade phrase. The pair is an advert. It reads the classifier's shape features (shape.ts),
// so the two agree on what a pitch looks like, and is asked only after the phrase signal fired, so ordinary
// messages pay nothing for it. Weighted (0.45) so that it needs a strong phrase, not a weak one, to flag under
// `standard`: chosen on the training and validation parts (docs/spam.md, "Fourth round").

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { asksForReply, proseShape, quotesPrice, shapeHead } from '../shape.ts';
import { tradePhrases } from './phrases.ts';

export const COLD_PITCH_WEIGHT = 0.45;
/**
 * Issue 35's eighth round: a spam trade named (a strong phrase: casino, loans, replicas, "your account will be
 * suspended" …) in a short advert that says nothing of its own. Most web-form spam `standard` missed with one strong
 * phrase and nothing else was this: "Kredit ohne Schufa bis 50.000 €! Sofortzusage … Jetzt Antrag stellen: <link>",
 * which names no offer in the pitch's words, so `cold_pitch` did not see it. The same weight, so that the strong phrase
 * and this reach the threshold together and a weak phrase with it does not.
 */
export const TRADE_ADVERT_WEIGHT = 0.45;
/**
 * Between these lengths (characters of prose without its links): a short request to an assistant or a comment that
 * names a casino or ends in "xxx" is shorter; a newsletter that quotes a trade is longer. Chosen on the training and
 * validation parts (docs/spam.md, "Eighth round").
 */
const ADVERT_MIN_LENGTH = 60;
const ADVERT_MAX_LENGTH = 600;
const QUESTION = /[?¿؟？]/u;

export function coldPitchSignal(text: SubmissionText, hits: readonly SignalHit[]): SignalHit | null {
  if (!hits.some((hit) => hit.id === 'spam_phrases')) return null;
  const { written, shape } = proseShape(text);
  const personal = shape.has('h:named') || shape.has('h:referral');
  // A supplier who states quantities or says where it is registered has told the reader something to check.
  const own = shape.has('h:need') || shape.has('h:concrete') || shape.has('h:identity');
  const offered = shape.has('h:offer') || shape.has('h:benefit') || shape.has('h:pitch');
  if (personal || own) return null;
  if (offered) {
    const what = shape.has('h:pitch') ? 'asks for a reply to the pitch' : shape.has('h:offer') ? 'offers a service' : 'promises a generic benefit';
    return { id: 'cold_pitch', weight: COLD_PITCH_WEIGHT, detail: `a cold pitch: ${what} to nobody in particular, with no need or detail of its own` };
  }
  // A question the message asks of its own ("what game has the best odds at a casino?") is a reader's, not an advert's.
  if (written.trim().length < ADVERT_MIN_LENGTH || written.length > ADVERT_MAX_LENGTH || QUESTION.test(written)) return null;
  const trades = tradePhrases(text);
  if (trades.length === 0) return null;
  return { id: 'trade_advert', weight: TRADE_ADVERT_WEIGHT, detail: `a short advert for ${trades.join(', ')} that names no one and asks nothing of its own` };
}

/**
 * Issue 35's ninth round: the pitch without a trade phrase. An offer, a generic benefit or "I noticed your site", with a
 * reply asked for ("Shall I send it over?", "¿Le interesa?", "Czy mogę przesłać ofertę?"), to nobody in particular
 * (no named person, no referral) and with nothing to check (no quantities, dates, order numbers or registered address),
 * in a short message. On the training and validation parts this shape held 50 web-form spam, 25 of which `standard`
 * missed, and three introductions (a local awning maker, a cleaning firm, an accountant) and no other legitimate message.
 * Weak alone (under `standard`'s threshold); with a stranger's link, a messaging app or a weak trade phrase it flags.
 */
export const COLD_OFFER_WEIGHT = 0.55;

export function coldOfferSignal(text: SubmissionText, hits: readonly SignalHit[]): SignalHit | null {
  if (hits.some((hit) => hit.id === 'spam_phrases') || text.foldedProse.length > ADVERT_MAX_LENGTH) return null;
  // Most messages ask for no reply: the rest of the shape is then not needed.
  if (!asksForReply(shapeHead(text.view.lowerWritten))) return null;
  const { shape } = proseShape(text);
  const asked = shape.has('h:pitch') && (shape.has('h:offer') || shape.has('h:benefit') || shape.has('h:discovery'));
  const own = ['h:named', 'h:referral', 'h:concrete', 'h:identity'].some((feature) => shape.has(feature));
  if (!asked || own) return null;
  return { id: 'cold_offer', weight: COLD_OFFER_WEIGHT, detail: 'a pitch that asks for a reply, to nobody in particular and with nothing of its own to check' };
}

/**
 * Issue 35's tenth round: a price quoted in an offer to nobody in particular ("We design websites from $299", "10
 * reviews from $49", "Le rediseñamos la web por 390 €"), from a sender who names no one, was sent by no one, states no
 * need, quantity, date or registered address of their own (`h:priced_offer`, shape.ts). On the training and
 * validation parts: 68 web-form spam, one e-mail, two comment and one text-message spam, and four introductions (a
 * chair refurbisher's stock at £340 each, a charity's kit sponsorship from £150, a bike-repair van's prices, a firewood
 * supplier's first pallet). Weak alone; beside a cold
 * offer, a trade phrase or a fault found in the reader's site it flags.
 */
export const PRICED_OFFER_WEIGHT = 0.5;

export function pricedOfferSignal(text: SubmissionText): SignalHit | null {
  if (text.foldedProse.length > ADVERT_MAX_LENGTH || !quotesPrice(shapeHead(text.view.lowerWritten))) return null;
  const { shape } = proseShape(text);
  if (!shape.has('h:priced_offer')) return null;
  return { id: 'priced_offer', weight: PRICED_OFFER_WEIGHT, detail: 'a price quoted in an offer to nobody in particular' };
}
