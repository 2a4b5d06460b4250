// Limits on what a client may register (RFC 7591 registration is open to anyone, so each field's
// size is what a stranger can make the server store). oidc-provider runs the validator of
// `extraClientMetadata` with the whole metadata at registration; a throw there answers 400
// invalid_client_metadata (invalid_redirect_uri for a redirect URI).
import type { Configuration } from 'oidc-provider';

export const CLIENT_NAME_MAX = 100;
export const REDIRECT_URIS_MAX = 10;
/** Each URI (redirect, logo, policy…) and any other string field. */
export const STRING_MAX = 500;
/** Each list (redirect URIs, contacts, grant types…). */
export const LIST_MAX = 10;
/** Everything together, as JSON: a jwks or other object field counts here. */
export const METADATA_MAX_BYTES = 8 * 1024;

/** RFC 7591 fields oidc-provider would otherwise drop; declaring them is what runs the validator. */
const EXTRA = ['software_id', 'software_version'];

function problem(metadata: Record<string, unknown>): string | null {
  const name = metadata.client_name;
  if (typeof name === 'string' && name.length > CLIENT_NAME_MAX) return `client_name is longer than ${CLIENT_NAME_MAX} characters`;
  const redirects = metadata.redirect_uris;
  if (Array.isArray(redirects) && redirects.length > REDIRECT_URIS_MAX) return `at most ${REDIRECT_URIS_MAX} redirect URIs may be registered`;
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === 'string' && value.length > STRING_MAX) return `${key} is longer than ${STRING_MAX} characters`;
    if (!Array.isArray(value)) continue;
    if (value.length > LIST_MAX) return `${key} has more than ${LIST_MAX} entries`;
    if (value.some((item) => typeof item === 'string' && item.length > STRING_MAX)) return `${key} has an entry longer than ${STRING_MAX} characters`;
  }
  if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES) return `the metadata is larger than ${METADATA_MAX_BYTES} bytes`;
  return null;
}

/** The provider's extraClientMetadata: `invalid` builds its InvalidClientMetadata error. */
export function clientMetadataLimits(invalid: (description: string) => Error): NonNullable<Configuration['extraClientMetadata']> {
  return {
    properties: EXTRA,
    validator(ctx, key, _value, metadata) {
      // Called once per extra property (the whole metadata is checked on the first), at registration
      // and when a stored client is loaded: only a registration (which has a request) is refused, so
      // a client registered before these limits keeps working.
      if (key !== EXTRA[0] || !ctx) return;
      const found = problem(metadata as unknown as Record<string, unknown>);
      if (found) throw invalid(found);
    },
  };
}
