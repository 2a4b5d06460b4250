// Finds links in free text the way a reader would see them: with a scheme, starting with
// "www.", or a bare domain followed by a path. Shared by the link heuristics and the
// classifier's features, so both count the same links.

export interface FoundUrl {
  text: string;
  /** Lower-cased host without "www." and without a port. */
  host: string;
}

// Repetitions are bounded so that no input (say 20,000 characters of "a.a.a.") makes matching quadratic.
const URL_PATTERN = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<>"'`\]\[{}|\\^]+|\b(?:[a-z0-9-]{1,63}\.){1,8}[a-z]{2,24}\/[^\s<>"'`\]\[{}|\\^]*/giu;
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
  const found: FoundUrl[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = withoutTrailingPunctuation(match[0]);
    found.push({ text: url, host: hostOf(url) });
  }
  return found;
}

/** Sentence punctuation after a link is not part of it; trimmed by a loop, as `[.,]+$` backtracks quadratically. */
function withoutTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(url[end - 1]!)) end--;
  return url.slice(0, end);
}

export function removeUrls(text: string): string {
  return text.replace(URL_PATTERN, ' ');
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
