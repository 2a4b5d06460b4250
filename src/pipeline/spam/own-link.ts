// Issue 35's ninth round: a link the sender introduces as their own work. A freelancer or a workshop writing to a
// business ends with "my work: rahulsharma.dev", "Портфолио: annadesign.ru", "תיק עבודות: noa-design.co.il",
// "ผลงาน: somchai-photo.com", "Arbetsprover finns på linneatext.se": a portfolio, samples, the sender's own works,
// named just before the link. Outreach and link drops send a stranger's site with bait ("check this", "visit my site
// for more information about …", "see our portfolio"): an agency's "our", or nothing of the sender's own work.
// In scripts whose words the classifier reads only as pieces of two characters and whose names no domain spells
// (the Hebrew "יעל" of yaeldesign.co.il), this is what tells the two apart; in every script it is a feature the
// classifier weighs (text.ts, `u!own`) and it keeps stranger_link off the link (signals/web-form.ts).
// Each pattern is a list of fixed words; matching stays linear (test/regex-audit.test.ts).

import { isIpHost, isShortener, removeUrls, type FoundUrl } from './urls.ts';

/** How far before the link the words that introduce it are looked for. */
const OWN_WORK_WINDOW = 48;
/**
 * Words that name the sender's own work: a portfolio in any language, or "my work(s)", "my projects", "samples of my
 * work" with the first-person possessive. Lower-cased text. Not "my site" or "my page": "visit my site for more
 * information about …" is a link drop's bait.
 */
const OWN_WORK = /(?:portf[oó]li[oa]|portfólio|portofoliu|portfolyo|portofolio|портфолио|портфоліо|पोर्टफोलियो|포트폴리오|ポートフォリオ|作品|ผลงาน|תיק\sעבודות|עבודות\sשלי|העבודות\sשלי|أعمالي|my\s(?:work|projects|samples|recent\swork)|samples\sof\smy\swork|arbetsprover|min\s(?:mappe|portfølje)|meine\s(?:arbeiten|referenzen|projekte)|mes\s(?:r[ée]f[ée]rences|r[ée]alisations|travaux)|mis\s(?:trabajos|proyectos)|i\smiei\s(?:lavori|progetti)|os\smeus\s(?:trabalhos|projetos)|mijn\s(?:werk|projecten)|moje\s(?:prace|projekty)|мои\sработы|мої\sроботи|मेरा\sकाम|मेरे\sकाम|çalışmalarım)/u;
/** An agency's or a shop's "our" before the portfolio: outreach's "see our portfolio: …". */
const OUR = /(?:^|[^\p{L}])(?:our|see\sour|unser(?:e|en)?|notre|nos|nuestro|nuestros|nostro|nostri|nosso|nossos|onze|ons|nasze|naszych|наше|наши|наш)\s/u;

/** Whether the words just before this link introduce it as the sender's own work. */
export function introducedAsOwnWork(text: string, url: FoundUrl): boolean {
  const at = text.indexOf(url.text);
  if (at < 0) return false;
  const before = text.slice(Math.max(0, at - OWN_WORK_WINDOW), at).toLowerCase();
  const work = OWN_WORK.exec(before);
  return work !== null && !OUR.test(before.slice(0, work.index + work[0].length));
}

/** Hosts where a link says nothing about the sender: people share photos, files, profiles and payment pages there. */
const PLATFORM_HOSTS = /(?:^|\.)(?:google|goo|github|gitlab|linkedin|facebook|instagram|youtube|youtu|imgur|behance|dribbble|dropbox|stripe|paypal|eventbrite|twitter|x|tiktok|wikipedia|amazon|apple|microsoft|live|etsy|shopify|wordpress|medium|notion|calendly|zoom|wetransfer|onedrive|icloud|vimeo|flickr|pinterest|reddit|trello|figma|canva)\.[a-z.]{2,12}$/u;
const WORD = /[\p{L}\p{N}]{4,}/gu;
const DOMAIN_PART = /[a-z]{4,}/gu;
const STOP_WORDS = new Set(['http', 'https', 'html', 'this', 'that', 'with', 'your', 'from', 'have', 'here', 'site', 'website', 'link', 'page', 'online', 'visit', 'also', 'just', 'please']);
const NAMING_PREFIX = 5;

/** The words of four letters or more, links left out, that may name a link's domain (stranger_link, `u!named`). */
export function namingWords(values: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const value of values) for (const word of removeUrls(value.toLowerCase()).match(WORD) ?? []) if (!STOP_WORDS.has(word)) words.add(word);
  return words;
}

/**
 * Whether a word of the message names the link's domain: a word's first five letters are in it ("traductrice" names
 * claire-traductions.fr), or in its path ("your article about roses … /roses" points at what the message is about).
 * Undefined for links that say nothing either way: platforms (a photo on imgur or a profile on LinkedIn is named by
 * its host, not by what it shows), shorteners and bare addresses (their own signals speak for them), and domains
 * without a run of four letters.
 */
export function linkNamed(url: FoundUrl, words: ReadonlySet<string>): boolean | undefined {
  if (PLATFORM_HOSTS.test(url.host) || isShortener(url.host) || isIpHost(url.host)) return undefined;
  const domain = url.host.split('.').slice(0, -1).join('.');
  if ((domain.match(DOMAIN_PART) ?? []).length === 0) return undefined;
  const lower = url.text.toLowerCase();
  const path = lower.slice(lower.indexOf(url.host) + url.host.length);
  for (const word of words) {
    const prefix = word.slice(0, NAMING_PREFIX);
    if (domain.includes(prefix) || (path.length > 1 && path.includes(prefix))) return true;
  }
  return false;
}
