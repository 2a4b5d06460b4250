// What text-message (SMS) spam does in a line: a premium-rate number to call or a shortcode to text, a
// price per minute or per message, the operator's "reply STOP" small print, a prize to claim, and a body
// that is hardly more than a phone number. Each pattern is written against what a customer writing to a
// form says with the same words ("call me back on …", "I replied STOP twice", "how do I claim my
// refund?", "am I entitled to a refund?"), which it must not match; the tests pin such near-misses.
//
// Matched against SubmissionText.leadingProse (folded, lower-cased, whitespace runs made one space). Every
// quantifier is bounded or sits between disjoint character classes, so matching stays linear.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';

/**
 * UK 09xx and 087x, DE/AT/NL 0900/0906, US/CA 1-900, IT 899, FR 089x: numbers billed at a premium, when the text
 * says to call or text them. A bare 09xx number alone is not enough: it is an ordinary mobile in the Philippines.
 */
const PREMIUM_AFTER_CALL = /\b(?:call|ring|dial|phone|rufen\ssie(?:\sjetzt)?|bel(?:\snu)?|chiama(?:\ssubito)?|appelez(?:\sle)?|llama\sal|(?:text|txt)\s(?:me|us)(?:\sback)?)\s(?:now\s|free\s|us\s|today\s|direct\s)?(?:on\s|at\s)?(?:l['’])?(?:(?:\+?44\s?0?|0)(?:9\d{2}|87[0-3])[\d\s-]{5,9}\d|1[\s-]?900[\d\s-]{6,9}\d|0?89\d[\d\s-]{5,8}\d)/u;
const PREMIUM_LEADING = /^(?:\+?44\s?0?|0)(?:9\d{2}|87[0-3])[\d\s-]{5,9}\d/u;
const RATE = /\b\d{1,3}p\s?(?:\/|per\s)\s?(?:min|minute|msg|message|txt|text|wk|week|day)\b|(?:£|€|\$)\s?\d{1,2}(?:[.,]\d{1,2})?\s?(?:\/|per\s)\s?(?:min|minute|msg|message|txt|text)\b|\bcalls?\scost\s\d{1,3}p\b/u;
const SHORTCODE = /\b(?:text|txt|sms|send|reply|env[ií]a|manda|responde)\s(?:the\sword\s)?["'“]?[a-z0-9]{2,12}["'”]?\s(?:to|2|on|al|au)\s\d{4,6}\b(?![\s-]?\d)/u;

/** The operator's small print, and the SMS shorthand of spam. */
const STOP_REPLY = /\b(?:reply|txt|text|send|sms)\s["'“]?(?:stop|end|unsub)["'”]?(?:\s(?:to|2)\s(?:\d|end|cancel|opt|unsub|stop|quit|remove)|\s?[.,;!)]|$)|\b(?:stop|unsub)\s(?:to|2|au|al)\s\d{4,6}\b|\bstop\s(?:to|2)\s(?:end|unsubscribe|opt\sout|cancel|quit)\b|\bstop\?\s?(?:txt|text|reply)\b|\bto\sopt[\s-]out,?\s(?:reply|txt|text|send)\b/u;
const SMS_SHORTHAND = /\bfreemsg\b|\bfree\smsg\s?:|\b(?:txt|reply)\s(?:yes|claim|win|now)\b[^.\n]{0,20}\b(?:to\s)?claim\b/u;

/** A prize, a reward or compensation announced to the reader, and the way to claim it. */
const PRIZE = /\byou(?:'ve|’ve|\shave|\sare|\sr)?\s(?:just\s)?(?:won|been\s(?:selected|chosen|awarded))\b(?!['’])|\b(?:mobile|number|account|email|phone|ticket)\s(?:number\s)?has\s(?:won|been\s(?:selected|chosen|awarded))\b|\byou\s(?:are|r)\s(?:a\s)?(?:lucky\s)?winners?\b|\bwinners?\s?!|\b(?:ur|u|you)\s(?:are\s)?awarded\b|\b(?:for\s)?your\schances?\sto\swin\b|\bfree\sentry\sin(?:to)?\b|\b(?:lottery|lotto|sweepstakes?)\s(?:win|winnings|winner|prize|award)\b|\b(?:sie\shaben|du\shast)\s[^!\n]{0,30}\bgewonnen\b|\bvous\savez\sgagn[ée]|\b(?:has|usted\sha)\sganado\b|\bhai\svinto\b|\bvoc[êe]\sganhou\b/u;
const CLAIM = /\bclaim\s(?:your|ur|a|yours)\s(?:free\s)?(?:£|€|\$|\d|prize|reward|gift|bonus|cash|money|voucher|holiday|award|iphone|phone)|\b(?:to|2)\sclaim,?\s(?:call|ring|txt|text|reply|visit|click|go\sto|dial)\b|\bclaim\s(?:now|today|it\snow|yours)\b|\bcall\s[^.\n]{0,24}\bto\sclaim\b|\b(?:cash|guaranteed|mystery)\s(?:prize|award)\b|(?:£|€|\$)\s?\d[\d,.]{0,9}\s(?:cash\s)?(?:prize|award|reward|bonus)\b|\byou\s(?:are|may\sbe|could\sbe|r)\s(?:now\s)?entitled\sto\b|\b(?:your|ur)\s(?:cash\s)?(?:prize|reward|award)\s(?:is\s)?(?:waiting|awaits|ready|pending)\b|\b(?:won|win)\s(?:a\s|an\s)?(?:free\s|brand\snew\s)(?:iphone|ipad|phone|holiday|car|tv|camcorder|gift|voucher)/u;

const PHONE_NUMBER = /\+?\d[\d ().-]{6,18}\d/gu;
const DIGIT = /\d/gu;
const SPACE = /\s/gu;
const MAX_MOSTLY_PHONE_LENGTH = 200;
/** Digits' share of the message's non-space characters from which it is "mostly a number", in any script. */
const MOSTLY_DIGITS = 0.5;

export function premiumNumberSignal(text: SubmissionText): SignalHit | null {
  const prose = text.leadingProse;
  // A number that opens a value is read from that value: leadingProse joins all values, a name first.
  const leading = text.prose.reduce<RegExpExecArray | null>((found, field) => found ?? PREMIUM_LEADING.exec(field.value.trimStart()), null);
  const found = [PREMIUM_AFTER_CALL.exec(prose) ?? leading, RATE.exec(prose), SHORTCODE.exec(prose)];
  const labels = ['a premium-rate number', 'a price per minute or message', 'a text shortcode'];
  const parts = found.flatMap((match, index) => (match ? [`${labels[index]} ("${match[0].trim()}")`] : []));
  if (parts.length === 0) return null;
  // One of them is how a text-message service bills; two together are the whole advert.
  return { id: 'premium_number', weight: parts.length > 1 ? 1 : 0.7, detail: parts.join(', ') };
}

export function stopReplySignal(text: SubmissionText): SignalHit | null {
  const stop = STOP_REPLY.exec(text.leadingProse);
  const shorthand = SMS_SHORTHAND.exec(text.leadingProse);
  if (!stop && !shorthand) return null;
  const parts = [stop ? `opt-out small print ("${stop[0].trim()}")` : '', shorthand ? `text-message spam wording ("${shorthand[0].trim()}")` : ''].filter(Boolean);
  return { id: 'sms_keywords', weight: stop && shorthand ? 0.8 : 0.5, detail: parts.join(', ') };
}

export function prizeClaimSignal(text: SubmissionText): SignalHit | null {
  const prize = PRIZE.exec(text.leadingProse);
  const claim = CLAIM.exec(text.leadingProse);
  if (!prize && !claim) return null;
  const parts = [prize ? `a prize announced ("${prize[0].trim()}")` : '', claim ? `told to claim it ("${claim[0].trim()}")` : ''].filter(Boolean);
  return { id: 'prize_claim', weight: prize && claim ? 1.2 : 0.7, detail: parts.join(', ') };
}

/**
 * A short message whose characters are mostly the digits of a phone number ("0906 1701461 call now"): the body
 * of number-pushing spam. Counted in characters, so it reads the same in scripts written without spaces. Weak
 * alone: "Call me: 07700 900123" is a real request.
 */
export function mostlyPhoneSignal(text: SubmissionText): SignalHit | null {
  const message = text.prose.reduce<string>((longest, field) => (field.value.length > longest.length ? field.value : longest), '');
  if (message.length === 0 || message.length > MAX_MOSTLY_PHONE_LENGTH) return null;
  const phones = message.match(PHONE_NUMBER);
  if (!phones) return null;
  const digits = phones.join('').match(DIGIT)?.length ?? 0;
  const characters = message.length - (message.match(SPACE)?.length ?? 0);
  if (digits < MOSTLY_DIGITS * characters) return null;
  return { id: 'mostly_phone', weight: 0.4, detail: `the message is mostly a phone number (${phones[0]!.trim()})` };
}
