// An Idempotency-Key is bound to the request it came with: the key replays the first answer only to
// the same data sent to the same schema version. A client that derives keys from something
// guessable (an order number, a timestamp) then leaks nothing to whoever guesses one.
import { hash } from 'node:crypto';

/** Object keys sorted, so the same data sent with its fields in another order is the same request. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** The hash stored beside a key: of the validated data (what is stored) and the schema version it was checked against. */
export function idempotencyRequestHash(versionId: string, data: Record<string, unknown>): string {
  return hash('sha256', JSON.stringify([versionId, sortedKeys(data)]), 'base64url');
}
