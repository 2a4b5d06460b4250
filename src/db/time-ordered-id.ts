// Ids of rows that arrive in bulk (submissions): UUIDs of version 7 (RFC 9562), 48 bits of Unix
// milliseconds then random bits. An id made later sorts later, so inserting one appends to the
// id index instead of touching a random page of it: fewer pages written per commit, on either engine.
import { randomFillSync } from 'node:crypto';

// Random bytes drawn 256 ids at a time: one call to the generator per id cost more than the rest.
const pool = Buffer.alloc(16 * 256);
let used = pool.length;

export function timeOrderedUuid(now: number = Date.now()): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + 16);
  used += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
