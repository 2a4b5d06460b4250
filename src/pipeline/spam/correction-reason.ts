// The spam_reason an owner's correction leaves: the owner's verdict, and the automatic verdict it overruled.
// A submission corrected more than once keeps the automatic verdict only, never an earlier owner's verdict
// inside the new one (a reason is read by people; "Marked as not spam (automatic verdict: Marked as spam …)" is noise).

const MARKED_SPAM = 'Marked as spam by the owner';
const MARKED_NOT_SPAM = 'Marked as not spam by the owner';
const AUTOMATIC = ' (automatic verdict: ';
const MAX_REASON_LENGTH = 2000;

export function correctedSpamReason(spam: boolean, previousReason: string | null): string {
  const verdict = spam ? MARKED_SPAM : MARKED_NOT_SPAM;
  const automatic = automaticReason(previousReason);
  return automatic ? `${verdict}${AUTOMATIC}${automatic})`.slice(0, MAX_REASON_LENGTH) : verdict;
}

/** The pipeline's own reason inside a stored one, however many corrections wrapped it (older rows nest them). */
export function automaticReason(reason: string | null): string | null {
  let rest = reason;
  // Each pass removes a wrapper, so the loop ends; a reason cut at MAX_REASON_LENGTH may have lost its ')'.
  while (rest) {
    if (rest === MARKED_SPAM || rest === MARKED_NOT_SPAM) return null;
    const wrapper = [MARKED_SPAM, MARKED_NOT_SPAM].map((marked) => marked + AUTOMATIC).find((prefix) => rest!.startsWith(prefix));
    if (!wrapper) return rest;
    rest = rest.slice(wrapper.length);
    if (rest.endsWith(')')) rest = rest.slice(0, -1);
  }
  return null;
}
