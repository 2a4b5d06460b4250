// Which sites may post to a form (its allowed_origins), and the owner's redirect URL: origins are
// kept normalised (scheme://host[:port], lower case, no default port), so a comparison is equality.
import { fail } from '../http/errors.ts';
import type { FormRecord } from './store.ts';

/** The origin of an http(s) URL or origin as the browser sends it, or null when it is neither. */
export function originOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

const ORIGIN = /^(https?):\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?\/?$/i;
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/**
 * An owner's entry as stored (the form schema's pattern says the same), or why it is not an origin.
 * Stored as the browser's Origin header would say it: lower case, no default port.
 */
export function normaliseOrigin(entry: string): { origin: string } | { problem: string } {
  const match = ORIGIN.exec(entry.trim());
  const port = match?.[3] === undefined ? null : Number(match[3]);
  if (!match || (port !== null && port > 65_535)) {
    return { problem: `${JSON.stringify(entry.slice(0, 80))} is not an origin such as https://example.com (scheme://host[:port], without a path)` };
  }
  const scheme = match[1]!.toLowerCase();
  const written = `${scheme}://${match[2]!.toLowerCase()}${port === null || port === DEFAULT_PORTS[scheme] ? '' : `:${port}`}`;
  // The URL parser's spelling where it has one (IPv4 and IPv6 forms); a host it cannot read is kept as written and never matches.
  return { origin: originOf(written) ?? written };
}

/** The site a post came from: its Origin header, else its Referer's origin; null when it sent neither usable. */
export function postingOrigin(headers: { origin: string | null; referer: string | null }): string | null {
  if (headers.origin && headers.origin !== 'null') return originOf(headers.origin);
  return originOf(headers.referer);
}

/**
 * When the form lists origins, a post from another site is refused; one that names no site at all
 * passes (scripts and privacy settings send neither header) and returns true: a spam signal.
 */
export function checkOrigin(form: Pick<FormRecord, 'settings'>, headers: { origin: string | null; referer: string | null }): { unknownOrigin: boolean } {
  const allowed = form.settings.allowed_origins;
  if (allowed.length === 0) return { unknownOrigin: false };
  const origin = postingOrigin(headers);
  // `Origin: null` (a privacy setting, a sandboxed page) names no site, like no header at all.
  const named = (headers.origin !== null && headers.origin !== '' && headers.origin !== 'null') || (headers.referer !== null && headers.referer !== '');
  if (origin && allowed.includes(origin)) return { unknownOrigin: false };
  if (!named) return { unknownOrigin: true };
  throw fail.originNotAllowed();
}
