// Issue 35's sixth round: two signs that read the same in every language, for spam worded unlike anything the phrase
// lists hold. Each is weak and fires on some honest messages, so it flags only beside other signs: a trade phrase, a
// cold pitch, a link the message never mentions. throwaway_link weighs 0.4 like the other weak link signs, so that it
// and a messaging handle (0.5) stay under `standard`'s threshold: a bakery with a ".shop" site that says "WhatsApp me".
//   throwaway_link   a link on a top-level domain that costs next to nothing and that campaigns register by the
//                    thousand (".shop", ".xyz", ".online" …); a bakery's "rosesbakery.shop" fires it too, alone.
//   messenger_route  a messaging app named as the way to answer in a message that asks nothing of its own (no question,
//                    or only a pitch's "interested?"): a customer who gives their WhatsApp asks something.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { isThrowawayHost, MESSAGING_APP } from '../contact-routes.ts';
import { shapeFeatures } from '../shape.ts';

const THROWAWAY_LINK_WEIGHT = 0.4;
const MESSENGER_ROUTE_WEIGHT = 0.45;
const MAX_URLS_READ = 5;
const QUESTION = /[?¿؟？]/u;

export function throwawayLinkSignal(text: SubmissionText): SignalHit | null {
  const url = text.urls.slice(0, MAX_URLS_READ).find((candidate) => isThrowawayHost(candidate.host));
  return url ? { id: 'throwaway_link', weight: THROWAWAY_LINK_WEIGHT, detail: `a link on a throwaway domain (${url.host})` } : null;
}

export function messengerRouteSignal(text: SubmissionText): SignalHit | null {
  const app = MESSAGING_APP.exec(text.leadingProse);
  if (!app) return null;
  if (QUESTION.test(text.leadingProse)) {
    // A question may be the pitch's own ("Interested?"); only then does it not count as the sender's.
    const shape = new Set(shapeFeatures(text.leadingProse, text.leadingProse, text.urls.length));
    if (!shape.has('h:pitch_without_need')) return null;
  }
  return { id: 'messenger_route', weight: MESSENGER_ROUTE_WEIGHT, detail: `a messaging app as the way to answer ("${app[0]}"), and nothing asked` };
}
