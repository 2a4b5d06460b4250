// The compact language table (src/pipeline/language-table.ts) against eld's own `eld/medium`: the same
// numbers for every n-gram, and the same answer from detectLanguage on the labelled messages, the
// English sets and generated text. Imports eld/medium, so this test pays the memory the server saves.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { eld } from 'eld/medium';
import { eldMediumTable } from '../scripts/language-table.ts';
import { decodeTable, encodeTable, TABLE_FILE } from '../src/pipeline/language-table.ts';
import { detectLanguage, detectorInput } from '../src/pipeline/language.ts';

const reference = eld.newInstance();

/** detectLanguage as it was with `eld/medium` loaded the library's way. */
function referenceLanguage(text: string): string | null {
  const input = detectorInput(text);
  if (input === null) return null;
  const result = reference.detect(input);
  return result.language !== '' && result.isReliable() ? result.language : null;
}

function texts(file: string, column: string): string[] {
  const [header, ...rows] = fs.readFileSync(new URL(`../scripts/data/${file}`, import.meta.url), 'utf8').trim().split('\n');
  const index = (header as string).split('\t').indexOf(column);
  assert.ok(index >= 0, `${file} has a ${column} column`);
  return rows.map((row) => row.split('\t')[index] as string);
}

describe('language table', () => {
  it('is the installed eld medium table, as `npm run language:table` writes it', async () => {
    assert.ok(encodeTable(await eldMediumTable()).equals(fs.readFileSync(TABLE_FILE)), 'run `npm run language:table`');
  });

  it('answers every n-gram of eld medium with its scores, and nothing else', async () => {
    const original = await eldMediumTable();
    const decoded = decodeTable(fs.readFileSync(TABLE_FILE));
    assert.equal(decoded.type, original.type);
    assert.deepEqual(decoded.languages, original.languages);
    for (const [ngram, scores] of Object.entries(original.ngrams)) assert.deepEqual({ ...decoded.ngrams[ngram] }, scores, ngram);
    for (const missing of ['', 'zzzzzzz', ' qx ', 'constructor', '__proto__', 'toString']) {
      assert.ok(!Object.hasOwn(original.ngrams, missing));
      assert.equal(decoded.ngrams[missing], undefined, missing);
    }
  });

  it('gives detectLanguage the answers of eld medium on the labelled messages and the English sets', () => {
    const labelled = [...texts('multilingual-messages.tsv', 'text'), ...texts('short-enquiries.tsv', 'text')];
    const english = [...texts('banking77-queries.tsv', 'text').slice(0, 3000), ...texts('clinc150-queries.tsv', 'text').slice(0, 3000)];
    let detected = 0;
    for (const text of [...labelled, ...english]) {
      const expected = referenceLanguage(text);
      assert.equal(detectLanguage(text), expected, text);
      if (expected !== null) detected++;
    }
    assert.ok(detected > labelled.length, 'most texts get a language');
  });

  it('gives detectLanguage the answers of eld medium on generated text', () => {
    const words = fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 40 }).map((w) => w.join(' '));
    const anyText = fc.oneof(words, fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ maxLength: 200 }));
    fc.assert(fc.property(anyText, (text) => detectLanguage(text) === referenceLanguage(text)), { numRuns: 3000 });
  });
});
