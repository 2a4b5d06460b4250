// Whether a stream of bytes is valid UTF-8, chunk by chunk, without decoding it into strings: a
// TextDecoder made a string of every uploaded text file, a megabyte of garbage per megabyte sent,
// which the upload benchmark saw as garbage-collection time on the thread that answers submissions.
import { isUtf8 } from 'node:buffer';

/** Where the last whole UTF-8 sequence of `bytes` ends: a sequence cut by the chunk's end waits for the next. */
function wholeEnd(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  // Only continuation bytes at the end: isUtf8 judges them as they are (and refuses a stray one).
  return bytes.length;
}

export function utf8Checker() {
  let carry: Buffer | null = null;
  let valid = true;
  return {
    /** Adds a chunk; false once the bytes so far cannot be UTF-8. */
    push(chunk: Buffer): boolean {
      if (!valid) return false;
      const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
      const end = wholeEnd(bytes);
      valid = isUtf8(bytes.subarray(0, end));
      carry = end < bytes.length ? Buffer.from(bytes.subarray(end)) : null;
      return valid;
    },
    /** At the end: valid UTF-8 with no sequence left unfinished. */
    end(): boolean {
      return valid && carry === null;
    },
  };
}
