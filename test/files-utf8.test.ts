// The streaming UTF-8 check that decides whether an upload without a signature is text
// (src/files/utf8.ts): it must agree with a fatal TextDecoder on the whole bytes, however they are cut.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { utf8Checker } from '../src/files/utf8.ts';

function checkedInChunks(bytes: Buffer, size: number): boolean {
  const checker = utf8Checker();
  for (let at = 0; at < bytes.length; at += size) checker.push(bytes.subarray(at, at + size));
  return checker.end();
}

function decodes(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

describe('streaming UTF-8 check', () => {
  const samples: Array<[string, Buffer]> = [
    ['ASCII', Buffer.from('plain text\n')],
    ['two-, three- and four-byte characters', Buffer.from('Lebenslauf für Zoë — 日本語 😀 end')],
    ['a stray continuation byte', Buffer.from([0x61, 0x80, 0x62])],
    ['a lead byte without its continuation', Buffer.from([0x61, 0xe6, 0x97, 0x62])],
    ['cut off in the middle of a character', Buffer.from('ok 😀').subarray(0, -2)],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
    ['a surrogate half', Buffer.from([0xed, 0xa0, 0x80])],
    ['Latin-1, not UTF-8', Buffer.from('für', 'latin1')],
  ];
  for (const [name, bytes] of samples) {
    it(`${name}: the same verdict as a fatal TextDecoder, cut anywhere`, () => {
      for (let size = 1; size <= bytes.length; size++) assert.equal(checkedInChunks(bytes, size), decodes(bytes), `chunks of ${size}`);
    });
  }
});
