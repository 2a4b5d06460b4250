// Finds links in free text the way a reader would see them: with a scheme, starting with
// "www.", a domain followed by a path, or a bare domain on a known top-level domain ("visit
// cheap-seo-pros.com"), the way spam writes links to slip past link filters. Shared by the link
// heuristics and the classifier's features, so both count the same links.

export interface FoundUrl {
  text: string;
  /** Lower-cased host without "www." and without a port. */
  host: string;
  /** Written without scheme, "www." or path ("acme-tools.de"): how a company's name may also be written. */
  bare: boolean;
}

// Repetitions are bounded so that no input (say 20,000 characters of "a.a.a.") makes matching quadratic.
// The last branch is a bare domain: not inside a word, an e-mail address (after "@") or a longer dotted name, ending
// on a top-level domain of its list, and not followed by more of a name or by "@". The list holds real, common ones
// (and the cheap ones spam campaigns register) but none that is also a file extension people type (.zip, .mov, .md,
// .py, .sh, .rs, .ai, .cc, .so, .ml) or a common word of two letters beyond the country codes kept. Which candidates
// count is then decided by isBareDomain.
const URL_PATTERN = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<>"'`\]\[{}|\\^]+|\b(?:[a-z0-9-]{1,63}\.){1,8}[a-z]{2,24}\/[^\s<>"'`\]\[{}|\\^]*|(?<![\p{L}\p{N}@._%+\/:-])(?:[a-z0-9][a-z0-9-]{0,62}\.){1,4}(?:com|net|org|info|biz|io|co|app|dev|xyz|online|site|shop|store|top|vip|club|live|click|link|blog|tech|agency|digital|media|news|pro|world|space|website|fun|icu|buzz|work|loan|loans|win|bid|date|rest|cyou|sbs|cfd|monster|casino|bet|poker|finance|money|credit|market|services|solutions|tk|ga|cf|gq|uk|de|fr|es|it|nl|pl|pt|ru|eu|us|ca|au|ch|at|be|se|dk|no|fi|cz|sk|ro|hu|tr|gr|ie|nz|za|ua|jp|cn|kr|tw|hk|sg|in|br|mx|ar|cl|ae|sa|il|me)(?![\p{L}\p{N}_@-]|\.[\p{L}\p{N}])/giu;
/** The other branches match a scheme, "www." or a path; the bare-domain branch none of them. */
const LINK_SHAPE = /^www\.|\//iu;
const HAS_LETTER = /[a-z]/iu;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')']);
const IPV4_HOST = /^\d{1,3}(?:\.\d{1,3}){3}$/u;
// Decimal ("http://3232235777") and hexadecimal ("http://0xc0a80101") spellings of an IPv4 address.
const OBFUSCATED_IP_HOST = /^(?:0x[0-9a-f]{6,8}|\d{8,10})$/u;

// youtu.be is left out: it only ever leads to YouTube, so it hides nothing.
const SHORTENER_HOSTS = new Set([
  'bit.ly', 'bitly.com', 'tinyurl.com', 't.co', 'goo.gl', 'ow.ly', 'is.gd', 'v.gd', 'buff.ly', 'rebrand.ly', 'cutt.ly',
  'shorturl.at', 'tiny.cc', 'rb.gy', 'bl.ink', 't.ly', 's.id', 'lnkd.in', 'shorte.st', 'adf.ly', 'bc.vc', 'soo.gd',
  'clck.ru', 'qr.ae', 'x.co', 'tr.im', 'mcaf.ee', 'su.pr', 'db.tt', 'po.st', 'u.to', 'rebrandly.com', 'short.io',
  'tiny.one', 'gg.gg', 'urlz.fr', 'shorturl.com', '1url.com', 'yourls.org', 'trib.al', 'dlvr.it', 'ift.tt', 'fb.me',
  'wp.me', 'amzn.to', 'linktr.ee', 'hyperurl.co', 'tinu.be', 'zpr.io', 'n9.cl', 'surl.li', 'l.ead.me',
]);

export function findUrls(text: string): FoundUrl[] {
  return scanUrls(text).urls;
}

/**
 * The links of a text and the text with each link blanked to one space (what removeUrls returns), from one pass of the
 * pattern: a submission's checks need both, and the pattern is the costliest of them.
 */
export function scanUrls(text: string): { urls: FoundUrl[]; withoutUrls: string } {
  const urls: FoundUrl[] = [];
  const kept: string[] = [];
  let copied = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    if (!isLink(match[0])) continue;
    const url = withoutTrailingPunctuation(match[0]);
    urls.push({ text: url, host: hostOf(url), bare: !LINK_SHAPE.test(match[0]) });
    kept.push(text.slice(copied, match.index));
    copied = match.index + match[0].length;
  }
  if (urls.length === 0) return { urls, withoutUrls: text };
  kept.push(text.slice(copied));
  return { urls, withoutUrls: kept.join(' ') };
}

/** Only candidates for a bare domain (no scheme, "www." or path) are judged; the other branches are links as matched. */
function isLink(candidate: string): boolean {
  return LINK_SHAPE.test(candidate) || isBareDomain(candidate);
}

/**
 * Hostname syntax (no label starts or ends with "-", a letter in the name before the top-level domain, so "3.50" and
 * "v1.2" never qualify) and a top-level domain written in lower case: "came.It was" and "ASP.NET" are prose that lost
 * a space or a product's name, not links. File names ("report.pdf", "setup.py", "notes.md", "archive.zip") end on
 * extensions BARE_TLDS leaves out, and abbreviations ("e.g.", "z.B.") on none.
 */
export function isBareDomain(candidate: string): boolean {
  const labels = candidate.split('.');
  const tld = labels.at(-1) ?? '';
  if (tld !== tld.toLowerCase() || candidate.length > 253) return false;
  if (!labels.every((label) => label.length > 0 && !label.startsWith('-') && !label.endsWith('-'))) return false;
  return HAS_LETTER.test(labels.at(-2) ?? '');
}

/** Sentence punctuation after a link is not part of it; trimmed by a loop, as `[.,]+$` backtracks quadratically. */
function withoutTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(url[end - 1]!)) end--;
  return url.slice(0, end);
}

export function removeUrls(text: string): string {
  return text.replace(URL_PATTERN, (candidate) => (isLink(candidate) ? ' ' : candidate));
}

export function isShortener(host: string): boolean {
  return SHORTENER_HOSTS.has(host);
}

export function isIpHost(host: string): boolean {
  return IPV4_HOST.test(host) || OBFUSCATED_IP_HOST.test(host) || host.startsWith('[');
}

function hostOf(url: string): string {
  const afterScheme = url.replace(/^[a-z]+:\/\//iu, '');
  const authority = afterScheme.split(/[/?#]/u, 1)[0] ?? '';
  const withoutUser = authority.slice(authority.lastIndexOf('@') + 1);
  const host = withoutUser.startsWith('[') ? withoutUser.slice(0, withoutUser.indexOf(']') + 1) : withoutUser.split(':', 1)[0] ?? '';
  return host.toLowerCase().replace(/^www\./u, '');
}
