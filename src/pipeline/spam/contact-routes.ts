// The ways a sender asks to be reached that read the same in every language: a messaging app's name and a link on a
// throwaway domain. Shared by the classifier's features (text.ts), which learn how much each says, and the heuristics
// (signals/contact-route.ts, signals/trade-link.ts), which name them.

/** Top-level domains that cost next to nothing and host most throwaway spam sites; none a business mostly uses. */
export const CHEAP_TLDS: ReadonlySet<string> = new Set(['vip', 'top', 'online', 'shop', 'live', 'click', 'site', 'club', 'xyz', 'loan', 'date', 'win', 'bid', 'icu', 'buzz', 'work', 'rest', 'cyou', 'sbs', 'store', 'fun', 'monster', 'cfd']);

/**
 * A messaging app named (brand names are written the same in every language, or in the few scripts listed), matched on
 * lower-cased text. Customers give their WhatsApp too: what it says is weighed by the classifier or, in the
 * heuristics, only beside other signs.
 */
export const MESSAGING_APP = /\b(?:whats\s?app|telegram|wechat|viber|kakao\s?talk|zalo)\b|\bt\.me\/|微信|카톡|(?<!\p{L})(?:телеграм|вотсап|ватсап|واتساب|واٹس\sایپ)/u;

export function isThrowawayHost(host: string): boolean {
  return CHEAP_TLDS.has(host.slice(host.lastIndexOf('.') + 1));
}
