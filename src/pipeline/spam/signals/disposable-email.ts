// Throwaway mailbox domains, from the maintained `mailchecker` list (read compactly by
// disposable-domains.ts). People use them for privacy too, so this signal alone does not make a
// submission spam.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { isListedDomain } from './disposable-domains.ts';

export function disposableEmailSignal(text: SubmissionText): SignalHit | null {
  for (const field of text.fields) {
    if (field.type !== 'email') continue;
    const domain = disposableDomainOf(field.value);
    if (domain) return { id: 'disposable_email', weight: 0.5, detail: `disposable email domain (${domain})` };
  }
  return null;
}

/** The listed domain the address belongs to (subdomains included), or null. */
export function disposableDomainOf(address: string): string | null {
  let domain = address.slice(address.lastIndexOf('@') + 1).trim().toLowerCase();
  while (domain.includes('.')) {
    if (isListedDomain(domain)) return domain;
    domain = domain.slice(domain.indexOf('.') + 1);
  }
  return null;
}
