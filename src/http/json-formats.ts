// The JSON Schema formats every Ajv instance here knows. ajv-formats' own `email` pattern
// backtracks on long hostile values, so ours replaces it; the others it ships are linear.
import type { Ajv } from 'ajv';
import addFormats, { type FormatName } from 'ajv-formats';
import { isEmailAddress } from '../forms/email-address.ts';

export function addSafeFormats(ajv: Ajv, formats: FormatName[], options: { keywords?: boolean } = {}): void {
  // ajv-formats is CommonJS; `.default` is the plugin under both Node's and TypeScript's view of the module.
  addFormats.default(ajv, { formats: formats.filter((name) => name !== 'email'), keywords: options.keywords ?? false });
  ajv.addFormat('email', { type: 'string', validate: isEmailAddress });
}
