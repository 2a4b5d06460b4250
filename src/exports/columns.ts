// An export's columns: id and created_at, every field of every schema version the form has had
// (the current version's order first, then fields that were removed, newest version first), the
// pipeline's verdicts, translated fields when the form has translations, and the reply status.
import type { FieldDefinition, FieldsSchema } from '../forms/field-schema.ts';
import type { ExportRow } from './store.ts';
import { fileLines } from '../files/link-lists.ts';

const LEADING = ['id', 'created_at'] as const;
const TRAILING = ['spam_flag', 'spam_reason', 'original_language'] as const;
const LAST = 'reply_status';
const FIXED = new Set<string>([...LEADING, ...TRAILING, LAST]);

export interface Column {
  header: string;
  value(row: ExportRow): unknown;
}

/** Field names in export order: current version first, then those only older versions had. */
export function fieldNames(versionsNewestFirst: FieldsSchema[]): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const version of versionsNewestFirst) {
    for (const field of version.fields) {
      if (!seen.has(field.name)) {
        seen.add(field.name);
        names.push(field.name);
      }
    }
  }
  return names;
}

/** The file fields of every version, newest definition of each name first. */
export function fileFields(versionsNewestFirst: FieldsSchema[]): FieldDefinition[] {
  const seen = new Set<string>();
  return versionsNewestFirst.flatMap((v) => v.fields).filter((f) => f.type === 'file' && !seen.has(f.name) && seen.add(f.name));
}

/** Text fields of any version: the ones a translation may hold. */
function translatableNames(versionsNewestFirst: FieldsSchema[], names: string[]): string[] {
  const text = new Set(versionsNewestFirst.flatMap((v) => v.fields.filter((f) => f.type === 'string').map((f) => f.name)));
  return names.filter((name) => text.has(name));
}

export function exportColumns(versionsNewestFirst: FieldsSchema[], withTranslations: boolean): Column[] {
  const names = fieldNames(versionsNewestFirst);
  // A field named like a fixed column (a field called `id`) gets a prefix rather than two columns of one name.
  const header = (name: string) => (FIXED.has(name) ? `data.${name}` : name);
  // A file field's column: its files' names and signed links, one a line (the service added the links).
  const files = new Set(fileFields(versionsNewestFirst).map((field) => field.name));
  return [
    ...LEADING.map((key) => ({ header: key, value: (row: ExportRow) => row[key] })),
    ...names.map((name) => ({ header: header(name), value: files.has(name) ? (row: ExportRow) => fileLines(row.data[name]) : (row: ExportRow) => row.data[name] })),
    ...TRAILING.map((key) => ({ header: key, value: (row: ExportRow) => row[key] })),
    ...(withTranslations ? translatableNames(versionsNewestFirst, names) : []).map((name) => ({
      header: `translated.${name}`,
      value: (row: ExportRow) => row.translated_data?.[name],
    })),
    { header: LAST, value: (row: ExportRow) => row.reply_status },
  ];
}
