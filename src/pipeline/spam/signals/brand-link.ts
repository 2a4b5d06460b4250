// Issue 35's ninth round: two kinds of web-form spam that carried no sign a rule read.
//
// brand_link: a link whose host spells a bank's, a courier's or a platform's name inside someone else's domain:
// "paypal-sicherheit-check.com", "dhl-paket-zustellung.info", "netflix-rinnovo.it.support-acc.com",
// "m365-quarantine-review.web.app". The brand's own sites ("paypal.com", "dhl.de", "mail.google.com") end on the
// brand's name and are left alone, and so is a word that merely contains a brand ("cups-direct.co.uk" is not UPS):
// the brand must be a whole piece of the host between dots and hyphens. Names that are also ordinary words (apple,
// meta, orange, chase, booking, ing, office, outlook, steam, stripe, ups) are not in the list, nor brands whose own
// sites are hyphenated (every German Sparkasse and Volksbank, gls-group.eu). Phishing texts for brands the phrase lists do not know are
// caught by their link.
//
// job_offer: a job offered to the reader with daily or hourly pay or "no experience needed" and a messaging app or
// an HR contact as the way to answer: the task scam ("rate products online, earn $200-$500 daily, contact our HR on
// WhatsApp"). A job seeker writes in the first person about their own search and is left alone. English, Indonesian
// and Tagalog (docs/spam.md, "Ninth round"); since the tenth round also German, Spanish, Portuguese, Malay and Urdu,
// the ninth set's job scams once they became training and validation data: the forms those parts hold, no others.
//
// Both lists are fixed words and bounded gaps; matching stays linear (test/regex-audit.test.ts).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { MESSAGING_APP } from '../contact-routes.ts';

/** Brands phishing texts impersonate, written as they appear in a host. */
const BRANDS = new Set([
  'paypal', 'netflix', 'spotify', 'disney', 'dhl', 'dpd', 'usps', 'fedex', 'evri', 'royalmail', 'postnl', 'bpost',
  'colissimo', 'chronopost', 'laposte', 'correos', 'ctt', 'inpost', 'posteitaliane', 'bancoposta', 'auspost', 'canadapost',
  'microsoft', 'office365', 'o365', 'm365', 'hotmail', 'onedrive', 'sharepoint', 'icloud', 'appleid', 'itunes',
  'amazon', 'google', 'gmail', 'facebook', 'instagram', 'whatsapp', 'binance', 'coinbase', 'metamask', 'revolut', 'n26', 'santander',
  'bbva', 'caixabank', 'rabobank', 'abnamro', 'commerzbank', 'postbank', 'hsbc', 'barclays', 'natwest',
  'lloyds', 'halifax', 'wellsfargo', 'bankofamerica', 'citibank', 'intesa', 'unicredit', 'bnp', 'ameli', 'impots', 'digid', 'mitid',
  'nemid', 'bankid', 'itsme', 'vipps', 'klarna', 'norton', 'mcafee', 'docusign', 'dropbox', 'wetransfer',
  'linkedin', 'tiktok', 'mastercard', 'amex', 'hmrc', 'dvla', 'ebay', 'allegro', 'aliexpress', 'airbnb', 'vodafone', 'telekom',
]);
const HOST_PIECE = /[a-z0-9]+/gu;
/** What may follow the brand's own name: a top-level domain, or a country's second level and its code ("co.uk", "gouv.fr"). */
const PUBLIC_SUFFIX = /^(?:(?:co|com|net|org|gov|gouv|govt|ac|or|ne)\.)?[a-z]{2,6}$/u;
/** A label that reads as a top-level domain after a brand's name: "paypal.com.…", "netflix.it.…". */
const TOP_LEVEL = /^(?:com|net|org|co|uk|us|ca|au|de|at|ch|fr|be|nl|it|es|pt|pl|cz|dk|se|no|fi|ie|gr|tr|ro|hu|br|mx|ar|in|jp|kr|cn|ru|ua)$/u;
const MAX_URLS_READ = 5;

export function brandLinkSignal(text: SubmissionText): SignalHit | null {
  for (const url of text.urls.slice(0, MAX_URLS_READ)) {
    const brand = impersonatedBrand(url.host);
    if (brand) return { id: 'brand_link', weight: 1, detail: `a link to ${url.host}, which spells "${brand}" inside another domain` };
  }
  return null;
}

/**
 * The brand a host spells inside a domain that is not the brand's own, if any: in a label strung with hyphens
 * ("paypal-sicherheit-check.com"), or as a whole label followed by a top-level domain that does not end the host
 * ("paypal.com.secure-login.xyz"). A brand's name alone as another domain's subdomain ("disney.go.com") is left alone.
 */
export function impersonatedBrand(host: string): string | null {
  const labels = host.split('.');
  if (labels.length < 2) return null;
  // The brand's own site: a label is the brand and only a public suffix follows ("dhl.de", "paypal.co.uk",
  // "outlook.office365.com", "impots.gouv.fr").
  for (let index = 0; index < labels.length - 1; index++) {
    if (BRANDS.has(labels[index]!) && PUBLIC_SUFFIX.test(labels.slice(index + 1).join('.'))) return null;
  }
  for (let index = 0; index < labels.length - 1; index++) {
    const label = labels[index]!;
    if (label.includes('-')) {
      for (const piece of label.match(HOST_PIECE) ?? []) if (BRANDS.has(piece)) return piece;
    } else if (BRANDS.has(label) && TOP_LEVEL.test(labels[index + 1]!)) {
      return label;
    }
  }
  return null;
}

/** A job or paid task offered to the reader. Matched on the folded, lower-cased prose. */
const JOB_OFFERED = /\b(?:part[\s-]?time\s(?:position|job|role|work|opportunity)|remote\s(?:position|job|role|work|opportunity)|(?:simple|easy)\sonline\stasks|online\s(?:job|tasks)|work(?:ing)?\sfrom\s(?:your\s)?home|we\s(?:are\s)?hiring|lowongan\skerja|paruh\swaktu|sa\sbahay\slang|nebent[äa]tigkeit|nebenjob|heimarbeit|im\shomeoffice|von\szu\shause\sarbeiten|estamos\scontratando|trabajar\sdesde\scasa|trabajo\sdesde\scasa|vaga\sde\semprego|trabalho\s(?:online|em\scasa|de\scasa|a\spartir\sde\scasa)|kerja\s(?:online|sambilan|dari\srumah|part\stime)|pekerja\ssambilan)|(?<!\p{L})(?:آن\sلائن\sکام|گھر\sبیٹھے)/u;
/** What the scam promises: pay by the day or the hour, or that no experience is needed. */
const JOB_BAIT = /(?:[$€£₱₹]|\brp|\busd)\s?\d[\d.,]{0,8}(?:\s?-\s?[$€£₱₹]?\s?\d[\d.,]{0,8})?\s?(?:daily|a\sday|per\sday|\/day|\/hr|\/hour|an\shour|per\shour|kada\saraw)|\b(?:gaji|earn)\s[^.\n]{0,24}(?:per\shari|daily|a\sday|per\sday)|\bpaid\sthe\ssame\sday|\bno\s(?:experience|skills)\s(?:needed|required|necessary)|\bwalang\spuhunan|\d[^.\n]{0,30}(?:pro\stag|am\stag|al\sd[íi]a|por\sd[íi]a|por\sdia|ao\sdia|sehari|per\shari)(?!\p{L})|\bpago\sdiario|\bgaji\sharian|\bkeine\s(?:vorkenntnisse|erfahrung)\s(?:n[öo]tig|erforderlich)|\bsin\sexperiencia|\b(?:sem|n[ãa]o\sprecisa\sde)\sexperi[êe]ncia|\b(?:tiada|tanpa|tak\sperlu)\spengalaman|(?<!\p{L})(?:روزانہ|کوئی\sتجربہ)/u;
/** How the scam wants the answer: its "HR" or "recruiter", or a messaging app (contact-routes.ts). */
const HR_CONTACT = /\b(?:our\shr|hr\s(?:team|department|manager)|recruiter|admin\sdi\swa)\b/u;
/** A job seeker's own search, in the first person. */
const SEEKING = /\b(?:i(?:'m|\sam)\s(?:looking|searching)\sfor|i\s(?:would|'d)\slike\sto\sapply|my\scv|my\sresume)\b/u;

export function jobOfferSignal(text: SubmissionText): SignalHit | null {
  const prose = text.leadingProse;
  if (!JOB_OFFERED.test(prose) || SEEKING.test(prose)) return null;
  const bait = JOB_BAIT.exec(prose);
  if (!bait || !(MESSAGING_APP.test(prose) || HR_CONTACT.test(prose))) return null;
  return { id: 'job_offer', weight: 1, detail: `a job offered with "${bait[0].trim()}" and a messaging app or "HR" to answer` };
}
