// A spam trade named (a strong phrase: casino, loans, replicas, essays, SEO links …) together with the way to buy
// it: a link on one of the cheap top-level domains such campaigns register by the thousand or behind a shortener,
// a messaging app to write to, or a free-mail address to write to. Either half alone is what honest messages
// do ("Is the casino night still on?", "Our site is example.shop"); the pair is what a trade's advert does. Weak
// enough (0.4) that a strong phrase and the pair alone stay under `standard`'s threshold: it needs one more sign.
// Only asked after the phrase signal fired, so ordinary messages pay nothing for it.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { tradePhrases } from './phrases.ts';
import { isIpHost, isShortener } from '../urls.ts';
import { isThrowawayHost, MESSAGING_APP } from '../contact-routes.ts';

/** A free-mail address offered as the way to answer ("email me at …"), not merely given ("my email is …"). */
const FREE_MAIL = /\b(?:me|us|nos|mir|uns|mi)\s(?:at|on|via|to|a|an|su)\s(?:my\s(?:private\s)?e-?mail\s)?[a-z0-9._%+-]{1,64}@(?:gmail|googlemail|outlook|hotmail|live|yahoo|aol|proton|protonmail|mail|yandex|gmx|qq|163)\.[a-z.]{2,8}\b/u;
const MAX_URLS_READ = 5;
const MAX_LENGTH = 1500;

export function tradeLinkSignal(text: SubmissionText, hits: readonly SignalHit[]): SignalHit | null {
  if (!hits.some((hit) => hit.id === 'spam_phrases') || text.foldedProse.length > MAX_LENGTH) return null;
  const route = routeToBuy(text);
  if (!route) return null;
  const trades = tradePhrases(text);
  if (trades.length === 0) return null;
  return { id: 'trade_link', weight: 0.4, detail: `${trades.join(', ')} offered with ${route}` };
}

function routeToBuy(text: SubmissionText): string | null {
  const messaging = MESSAGING_APP.exec(text.leadingProse);
  if (messaging) return `a messaging app to write to ("${messaging[0]}")`;
  const mail = FREE_MAIL.exec(text.leadingProse);
  if (mail) return `a free-mail address ("${mail[0]}")`;
  for (const url of text.urls.slice(0, MAX_URLS_READ)) {
    if (isShortener(url.host) || isIpHost(url.host)) return `a hidden link (${url.host})`;
    if (isThrowawayHost(url.host)) return `a link on a throwaway domain (${url.host})`;
  }
  // Bare domains ("Richiedi ora: prestito-facile.online") are among text.urls since findUrls reads them.
  return null;
}
