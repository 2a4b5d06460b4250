// The stop-word lists the smart replies use (src/knowledge/stop-lists.ts) are what
// scripts/stop-lists.ts builds from npm `stopword`: a changed package shows here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { LANGUAGES, packageLists, STOP_LISTS_FILE, stopListsText } from '../scripts/stop-lists.ts';
import * as shipped from '../src/knowledge/stop-lists.ts';

describe('the stop-word lists file', () => {
  it('is what the script builds from the package', () => {
    assert.equal(fs.readFileSync(STOP_LISTS_FILE, 'utf8'), stopListsText(packageLists()));
  });

  it('exports each list word for word as the package has it', () => {
    const stopword = createRequire(import.meta.url)('stopword') as Record<string, string[]>;
    for (const language of LANGUAGES) assert.deepEqual(shipped[language], stopword[language], language);
    assert.ok(shipped.deu.includes('über') && shipped.fra.includes('être'), 'accented words kept');
  });
});
