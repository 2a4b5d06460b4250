// Links are what most form spam exists to deliver. One link in a message is normal; many,
// shortened, pointing at a bare IP address, wrapped in HTML/BBCode, or nothing but links is not.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { isIpHost, isShortener, removeUrls } from '../urls.ts';

const LINK_MARKUP = /<a\s[^>]{0,200}href\s*=|\[url[=\]]|\[link[=\]]/iu;
const LEFTOVER_WORD = /[\p{L}\p{N}]{2,}/u;

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

/** A message field whose whole content is links: nothing a person wrote around them. */
export function onlyLinksSignal(text: SubmissionText): SignalHit | null {
  if (text.urls.length === 0) return null;
  const bare = text.prose.find((field) => {
    const rest = removeUrls(field.value);
    return field.value.length >= 8 && rest !== field.value && !LEFTOVER_WORD.test(rest);
  });
  return bare ? { id: 'only_links', weight: 0.6, detail: `"${bare.name}" is nothing but links` } : null;
}

/** HTML anchors and BBCode links do not render in a form submission; bots paste them for forums. */
export function linkMarkupSignal(text: SubmissionText): SignalHit | null {
  const field = text.prose.find((candidate) => LINK_MARKUP.test(candidate.value));
  return field ? { id: 'link_markup', weight: 0.6, detail: `HTML/BBCode link markup in "${field.name}"` } : null;
}
