// `npm run language:table`: writes src/pipeline/language-table.bin, the compact copy of eld's medium
// n-gram table that language detection reads (src/pipeline/language-table.ts says why). Run it after
// upgrading eld; test/language-table.test.ts fails until then.
import fs from 'node:fs';
import { encodeTable, TABLE_FILE, type NgramsData } from '../src/pipeline/language-table.ts';

/** eld's medium table as the package ships it (its ngrams module is not in the package's exports). */
export async function eldMediumTable(): Promise<NgramsData> {
  const module = (await import(new URL('../ngrams/medium.js', import.meta.resolve('eld')).href)) as { ngramsData: NgramsData };
  return module.ngramsData;
}

if (import.meta.main) {
  const encoded = encodeTable(await eldMediumTable());
  fs.writeFileSync(TABLE_FILE, encoded);
  console.log(`wrote ${TABLE_FILE.pathname} (${encoded.length} bytes)`);
}
