// Issue 35's tenth round: site_critique, the fault found in the reader's own site (site-critique.ts). Alone it is weak
// (0.5, under `standard`'s threshold): a customer writes "your site isn't mobile friendly, so can I book by phone?".
// Followed by the sender's offer, a pitch's ask, a guarantee or something free ("We build modern sites from 990 €", "Shall I send the audit?"),
// from someone who states no need of their own and was sent by no one, it is the pitch itself and weighs 0.95, enough
// alone. Whether a named sender ("Gruß, Tobias Renner") is excused is not asked: outreach signs with a name too.
// Chosen on the training and validation parts (docs/spam.md, "Tenth round").

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { proseShape } from '../shape.ts';
import { siteCritique } from '../site-critique.ts';

export const SITE_CRITIQUE_WEIGHT = 0.5;
/** Something free offered after the fault: the audit, the report, the analysis ("kostenlos", "bezpłatną analizę"). */
const FREE = /\b(?:free|kostenlos\w{0,2}|gratis|gratuit[aoe]?s?|bezp[łl]atn\p{L}{1,3}|[üu]cretsiz|zdarma)(?!\p{L})/u;
export const CRITIQUE_PITCH_WEIGHT = 0.95;

export function siteCritiqueSignal(text: SubmissionText): SignalHit | null {
  if (!siteCritique(text.leadingProse)) return null;
  const { shape } = proseShape(text);
  const pitched = shape.has('h:offer') || shape.has('h:pitch') || shape.has('h:benefit') || shape.has('h:pressure') || FREE.test(text.leadingProse);
  const own = shape.has('h:need') || shape.has('h:referral');
  if (pitched && !own) {
    return { id: 'site_critique', weight: CRITIQUE_PITCH_WEIGHT, detail: 'a fault found in your site, followed by an offer to fix it' };
  }
  return { id: 'site_critique', weight: SITE_CRITIQUE_WEIGHT, detail: 'a fault found in your site' };
}
