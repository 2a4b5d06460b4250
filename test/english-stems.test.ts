// The English stems the smart replies read (src/knowledge/english-stems.txt) are what
// scripts/english-stems.ts builds from the SUBTLEX-US package: a changed stemmer or list shows here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { englishStemsText, STEMS_FILE, subtlexEntries } from '../scripts/english-stems.ts';
import { isEnglishStem } from '../src/knowledge/english-words.ts';

describe('the English stems file', () => {
  it('is what the script builds from the word list', () => {
    assert.equal(fs.readFileSync(STEMS_FILE, 'utf8'), englishStemsText(subtlexEntries()));
  });

  it('holds common words and not misspellings', () => {
    for (const stem of ['piec', 'pierc', 'appoint', 'receipt', 'cancel']) assert.ok(isEnglishStem(stem), stem);
    for (const stem of ['apoint', 'reciept', '']) assert.ok(!isEnglishStem(stem), stem);
  });
});
