// The JSON Schema formats every Ajv instance here knows. ajv-formats' own `email` pattern
// backtracks on long hostile values, so ours replaces it; the others it ships are linear. A `uri`
// is what the WHATWG URL parser reads, the parser that later calls it.
import type { Ajv } from 'ajv';
import addFormats, { type FormatName } from 'ajv-formats';
import { isEmailAddress } from '../forms/email-address.ts';

export function addSafeFormats(ajv: Ajv, formats: FormatName[], options: { keywords?: boolean } = {}): void {
  // ajv-formats is CommonJS; `.default` is the plugin under both Node's and TypeScript's view of the module.
  const ours: Partial<Record<FormatName, (value: string) => boolean>> = { email: isEmailAddress, uri: (value) => URL.canParse(value) };
  addFormats.default(ajv, { formats: formats.filter((name) => !(name in ours)), keywords: options.keywords ?? false });
  for (const name of formats) if (ours[name]) ajv.addFormat(name, { type: 'string', validate: ours[name] });
}
