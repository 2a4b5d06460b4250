// The synchronous check of a destination URL, run when an owner saves it (and again before each
// send). Host names are not resolved here: send() checks the addresses they resolve to.
import { addressProblem, isAllowedHost, normalizeHost, parseAddress, type OutboundPolicy } from './address-policy.ts';

export interface UrlProblem {
  code: 'invalid_url' | 'blocked_address';
  message: string;
}

export interface CheckedUrl {
  url: URL;
  /** Lower case, without IPv6 brackets or a trailing dot. */
  host: string;
  /** True when the host is a literal IP address. */
  literal: boolean;
}

function invalid(message: string): UrlProblem {
  return { code: 'invalid_url', message };
}

function blocked(message: string): UrlProblem {
  return { code: 'blocked_address', message };
}

/**
 * The setting that would lift a refusal, named in it: an owner testing a receiver on their own machine
 * otherwise meets "points to a loopback address" with no way forward. Only the operator can set it.
 */
export function allowHint(host: string): string {
  return `the server's INTAKE_OUTBOUND_ALLOW setting lists it (e.g. INTAKE_OUTBOUND_ALLOW=${host})`;
}

/** The parsed URL, or the reason it may not be used as a destination. */
export function inspectUrl(raw: string, policy: OutboundPolicy): CheckedUrl | UrlProblem {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return invalid('is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return invalid('must be an HTTPS URL');
  if (url.username !== '' || url.password !== '') return invalid('must not contain a user name or password');
  const host = normalizeHost(url.hostname);
  if (host === '') return invalid('must name a host');
  const allowed = isAllowedHost(host, policy);
  // Plain HTTP would expose the signed payload in transit; it is for receivers the operator vouches for.
  if (url.protocol === 'http:' && !allowed) return invalid(`must be an HTTPS URL; plain http:// is allowed only if ${allowHint(host)}`);
  const literal = parseAddress(host) !== null;
  if (literal) {
    const problem = addressProblem(host, policy);
    if (problem) return blocked(`points to ${problem}, which notifications may reach only if ${allowHint(host)}`);
  } else if (!allowed && (host === 'localhost' || host.endsWith('.localhost'))) {
    // RFC 6761: these names always mean this machine, whatever DNS would say.
    return blocked(`points to this server (${host}), which notifications may reach only if ${allowHint(host)}`);
  }
  return { url, host, literal };
}

/** Null when the URL may be used as a destination; otherwise what is wrong with it. */
export function checkUrl(raw: string, policy: OutboundPolicy): UrlProblem | null {
  const result = inspectUrl(raw, policy);
  return 'code' in result ? result : null;
}
