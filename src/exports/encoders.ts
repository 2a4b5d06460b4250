// Turns chunks of rows into text: CSV (csv-stringify, RFC 4180 quoting), NDJSON or one JSON array.
// A CSV cell that a spreadsheet would run as a formula (a value starting with =, +, -, @, a tab or a
// carriage return: OWASP's list, which covers Excel, LibreOffice and Google Sheets) starts with an
// apostrophe instead, which every one of them shows as text and does not evaluate.
import { stringify } from 'csv-stringify/sync';
import type { Column } from './columns.ts';
import type { ExportRow } from './store.ts';

export type ExportFormat = 'csv' | 'ndjson' | 'json';

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell: nested values as JSON text, booleans as true/false, nothing as an empty cell. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return neutraliseFormula(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return neutraliseFormula(JSON.stringify(value));
}

/** What a JSON export holds of a row (the data as submitted, nested values kept). */
function jsonRow(row: ExportRow) {
  return {
    id: row.id,
    created_at: row.created_at,
    data: row.data,
    spam_flag: row.spam_flag,
    spam_reason: row.spam_reason,
    original_language: row.original_language,
    translated_data: row.translated_data,
    reply_status: row.reply_status,
  };
}

export interface Encoder {
  contentType: string;
  extension: string;
  start(): string;
  rows(rows: ExportRow[], first: boolean): string;
  end(): string;
}

export function encoderFor(format: ExportFormat, columns: Column[], options: { bom: boolean }): Encoder {
  if (format === 'csv') {
    return {
      contentType: 'text/csv; charset=utf-8',
      extension: 'csv',
      // The BOM tells Excel the file is UTF-8: without it, Excel reads non-Latin text as its ANSI code page.
      start: () => (options.bom ? '\uFEFF' : '') + stringify([columns.map((c) => neutraliseFormula(c.header))], { record_delimiter: 'windows' }),
      rows: (rows) => stringify(rows.map((row) => columns.map((c) => csvCell(c.value(row)))), { record_delimiter: 'windows' }),
      end: () => '',
    };
  }
  if (format === 'ndjson') {
    return {
      contentType: 'application/x-ndjson; charset=utf-8',
      extension: 'ndjson',
      start: () => '',
      rows: (rows) => rows.map((row) => `${JSON.stringify(jsonRow(row))}\n`).join(''),
      end: () => '',
    };
  }
  return {
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
    start: () => '[',
    rows: (rows, first) => (first ? '\n' : ',\n') + rows.map((row) => JSON.stringify(jsonRow(row))).join(',\n'),
    end: () => '\n]\n',
  };
}
