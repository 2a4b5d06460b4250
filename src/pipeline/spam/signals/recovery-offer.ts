// Issue 35's thirteenth round: recovery_offer, the "fund recovery" scam's pitch. It speaks to a victim of a fraud (a fake
// broker, a crypto platform, a romance scammer) and offers to get the money back: "Our recovery specialists have helped
// more than 3,000 people recover their money. No recovery, no fee", "Wir holen Ihr Geld zurück – Krypto, Forex,
// Dating-Betrug", "Wij halen uw geld terug". The twelfth round left them to the classifier, and `standard` saw one weak
// phrase at most.
//
// Two things together: the money got back ("recover your funds", "Geld zurück", "récupérer vos fonds", "recuperamos su
// dinero") and a fraud named ("scam", "Betrug" and compounds such as "Anlagebetrug", "arnaque", "estafa", "truffa",
// "golpe", "oplichting", "oszustwo", "мошенни…"), from a sender who never says "my" (a victim asking for help writes "I lost my savings"). Its near-miss
// twins, pinned in test/spam-thirteenth-round.test.ts: that victim, and a shop's refund promise ("money back guarantee")
// with no fraud named.
//
// The words are the training and validation parts' recovery offers' and the dictionaries' of their languages. Matched on
// the lower-cased leading prose; every gap is a bounded run of one class, so matching stays linear
// (test/regex-audit.test.ts).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { speaksOfTheirOwn } from './first-person.ts';

/** Alone enough under `standard`; in a short text it also flags under `intelligent` (classifier-verdict.ts). */
export const RECOVERY_OFFER_WEIGHT = 0.95;

/** The money got back. */
const MONEY_BACK = new RegExp([
  String.raw`\brecover(?:s|ed|ing|y)?\s(?:\p{L}{1,12}\s){0,2}(?:funds|money|crypto|assets|bitcoin|losses|deposits?)\b|\b(?:get|getting|got|bring)\s(?:your|their)\s(?:money|funds|crypto)\sback\b|\b(?:traced|trace)\sand\s(?:recover|return)|\breturned\s(?:over\s[$€£]|(?:the\s)?(?:funds|money))`,
  String.raw`\bgeld\s(?:\p{L}{1,12}\s)?zur[üu]ck\b|\br[ée]cup[ée]r\p{L}{1,5}\s(?:\p{L}{1,12}\s){0,2}(?:fonds|argent|cryptos?|pertes)\b|\brecuper\p{L}{1,6}\s(?:\p{L}{1,12}\s){0,2}(?:dinero|fondos|dinheiro|fundos|denaro|soldi|fondi|criptomonedas)\b`,
  String.raw`\bgeld\sterug\b|\bodzysk\p{L}{1,6}\s(?:\p{L}{1,12}\s)?(?:pieni\p{L}{1,4}|środki|srodki|kryptowalut\p{L}{0,2})|(?<!\p{L})(?:вернуть|вернём|вернем|возвращаем|повернемо|повернути)\s(?:\p{L}{1,12}\s)?(?:деньги|средства|кошти|гроші)`,
].join('|'), 'u');

/**
 * A fraud named: the reader as its victim. Stems, unanchored: a compound holds them too ("Anlagebetrug"), and a pattern
 * with no boundary or lookbehind before its alternatives is scanned fast for their first letters (most messages hold none).
 */
const FRAUD = /scam|fraud|fake\s(?:broker|trading|platform|investment)|swindl|betr[üu]g|arnaqu|escroqu|estafa|fraude|truffa|truffe|truffat|golpe|oplicht|opgelicht|oszust|мошенни|шахра|dolandır/u;

export function recoveryOfferSignal(text: SubmissionText): SignalHit | null {
  const prose = text.leadingProse;
  // The fraud first: it is the cheaper test, and most messages name none.
  if (!FRAUD.test(prose)) return null;
  const back = MONEY_BACK.exec(prose);
  if (!back || speaksOfTheirOwn(prose)) return null;
  return { id: 'recovery_offer', weight: RECOVERY_OFFER_WEIGHT, detail: `money lost to a fraud offered back ("${back[0].slice(0, 40)}")` };
}
