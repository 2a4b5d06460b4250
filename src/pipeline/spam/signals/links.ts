// Links are what most form spam exists to deliver. One link in a message is normal; many,
// shortened, pointing at a bare IP address, wrapped in HTML/BBCode, or nothing but links is not.

import type { SignalHit, TextField } from '../types.ts';
import { fieldWithoutUrls, type SubmissionText } from '../submission-text.ts';
import { isIpHost, isShortener } from '../urls.ts';

const LINK_MARKUP = /<a\s[^>]{0,200}href\s*=|\[url[=\]]|\[link[=\]]/iu;
const LEFTOVER_WORD = /[\p{L}\p{N}]{2,}/u;
const WORDS = /[\p{L}\p{N}]+/gu;
const MAX_MOSTLY_LINK_LENGTH = 600;
const MAX_BAIT_WORDS = 6;
const LINK_BAIT = /\b(?:check\s(?:it\s|this\s)?out|click\s(?:here|this|the\slink|on\sthe\slink)|visit\s(?:my|our|this|the)|go\sto\s(?:my|our|this)|look\s(?:it\s)?up|watch\s(?:it|this|my|now)|download\snow|sign\sup\snow|join\s(?:now|us|me)|free\s(?:download|gift|codes?)|download\s(?:\w{1,20}\s){0,3}for\sfree|(?:please\s)?open\sthis\slink)\b|\bclick\s?:/u;
const LINK_FIELD = /url|link|site|web|homepage|portfolio|profile|social|linkedin|github|twitter|instagram/iu;

export function linkCountSignal(text: SubmissionText): SignalHit | null {
  const count = text.urls.length;
  if (count < 2) return null;
  const weight = count >= 10 ? 0.8 : count >= 5 ? 0.6 : count >= 3 ? 0.4 : 0.2;
  return { id: 'links', weight, detail: `${count} links` };
}

export function linkShortenerSignal(text: SubmissionText): SignalHit | null {
  const shortened = text.urls.find((url) => isShortener(url.host));
  return shortened ? { id: 'link_shortener', weight: 0.5, detail: `a URL shortener (${shortened.host})` } : null;
}

export function ipLinkSignal(text: SubmissionText): SignalHit | null {
  const bare = text.urls.find((url) => isIpHost(url.host));
  return bare ? { id: 'ip_link', weight: 0.6, detail: `a link to a bare IP address (${bare.host})` } : null;
}

/**
 * A message whose whole content is links (nothing a person wrote around them), or that is mostly a link
 * with a few words of bait ("Nice! http://…", "check this http://…"). Fields meant for a link (website,
 * url …) are left alone, and so are texts past the length where short spam lives: a long message with a
 * long link is a bug report, not an advert.
 */
export function onlyLinksSignal(text: SubmissionText): SignalHit | null {
  if (text.urls.length === 0) return null;
  const fields = text.prose.filter((field) => !LINK_FIELD.test(field.name));
  for (const field of fields) {
    if (field.value.length < 8 || field.value.length > MAX_MOSTLY_LINK_LENGTH) continue;
    const rest = fieldWithoutUrls(text, field);
    if (rest !== field.value && !LEFTOVER_WORD.test(rest)) return { id: 'only_links', weight: 1, detail: `"${field.name}" is nothing but links` };
  }
  // Mostly a link: judged on the message itself (the longest text), not on a subject line that quotes one.
  const message = fields.reduce<TextField | null>((longest, field) => (field.value.length > (longest?.value.length ?? 0) ? field : longest), null);
  if (!message || message.value.length > MAX_MOSTLY_LINK_LENGTH) return null;
  const rest = fieldWithoutUrls(text, message);
  if (rest === message.value) return null;
  const words = rest.match(WORDS)?.length ?? 0;
  const linkShare = 1 - rest.trim().length / message.value.length;
  if (linkShare >= 0.5 || (words <= MAX_BAIT_WORDS && linkShare >= 0.3)) {
    return { id: 'mostly_link', weight: 0.7, detail: `"${message.name}" is mostly a link` };
  }
  return null;
}

/** Words that send the reader to a link, in a short text that has one: weak alone, the bait of a link advert. */
export function linkBaitSignal(text: SubmissionText): SignalHit | null {
  if (text.urls.length === 0 || text.foldedProse.length > MAX_MOSTLY_LINK_LENGTH) return null;
  const bait = LINK_BAIT.exec(text.leadingProse);
  return bait ? { id: 'link_bait', weight: 0.4, detail: `a link with "${bait[0]}"` } : null;
}

/** HTML anchors and BBCode links do not render in a form submission; bots paste them for forums. */
export function linkMarkupSignal(text: SubmissionText): SignalHit | null {
  const field = text.prose.find((candidate) => LINK_MARKUP.test(candidate.value));
  return field ? { id: 'link_markup', weight: 0.6, detail: `HTML/BBCode link markup in "${field.name}"` } : null;
}
