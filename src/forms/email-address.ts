// One email syntax check for every place that takes an address (submissions, accounts, email
// destinations). Written as splits and bounded label checks, not one regular expression, so its
// cost is linear in the input: the usual all-in-one patterns backtrack on long hostile values.

/** RFC 5321's limits: a path of 254 characters, a local part of 64, a domain label of 63. */
const MAX_ADDRESS = 254;
const MAX_LOCAL_PART = 64;
const MAX_LABEL = 63;
// The dot-atom characters of RFC 5322, as ajv-formats accepts them.
const ATOM = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+$/i;
const LABEL = /^[a-z0-9-]+$/i;

export function isEmailAddress(value: string): boolean {
  if (value.length > MAX_ADDRESS) return false;
  const parts = value.split('@');
  if (parts.length !== 2) return false;
  const [local, domain] = parts as [string, string];
  if (local.length === 0 || local.length > MAX_LOCAL_PART) return false;
  if (!local.split('.').every((atom) => ATOM.test(atom))) return false;
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every(isDomainLabel);
}

function isDomainLabel(label: string): boolean {
  return label.length > 0 && label.length <= MAX_LABEL && LABEL.test(label) && !label.startsWith('-') && !label.endsWith('-');
}

/** Printable ASCII: the only characters of an address Intake compares for identity. */
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/**
 * An address as an identity (whose account, whose submissions): trimmed and lower-cased, or null.
 * A value with any character outside ASCII is refused before folding, because folding turns
 * lookalikes into letters: the Kelvin sign (U+212A) lower-cases (and NFC-normalises) to `k`, the
 * long s (U+017F) upper-cases to `S`, and NFKC maps full-width letters (U+FF41 …) to ASCII. Such a
 * value never names the same person as the ASCII address it resembles.
 */
export function identityEmail(value: string): string | null {
  const trimmed = value.trim();
  if (!PRINTABLE_ASCII.test(trimmed)) return null;
  const address = trimmed.toLowerCase();
  return isEmailAddress(address) ? address : null;
}
