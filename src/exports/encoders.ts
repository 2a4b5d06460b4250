// Turns chunks of rows into text: CSV (csv-stringify, RFC 4180 quoting), NDJSON or one JSON array.
//
// CSV that no spreadsheet misreads, whatever a submitter sends:
// - Every value holding a quote, `,`, `;`, CR or LF is quoted. csv-stringify quotes CR and LF only
//   while record_delimiter is its default: with 'windows' a lone LF or CR was written bare and
//   started a new row. `;` is the list separator of many locales, whose spreadsheets split there.
// - A spreadsheet runs a cell as a formula when it starts with =, +, -, @, a tab or a CR (OWASP's
//   list, which covers Excel, LibreOffice and Google Sheets; the full-width forms for Numbers). Such a
//   start gets an apostrophe, which every one of them shows as text and does not evaluate, wherever
//   a cell may start: at the value's start, after every line break (a line of a quoted value is a row
//   to a reader that splits lines before quotes, as a `;` locale reading a `,` file does) and after
//   every `;` (where such a reader starts a cell: the value's quote is not at the start of that piece).
//   Quotes between that start and the formula character are looked through (a piece starting with
//   a quote is a quoted cell to that reader). Field names (the header) go through the same guard.
import { stringify, type Options } from 'csv-stringify/sync';
import type { Column } from './columns.ts';
import type { ExportRow } from './store.ts';

export type ExportFormat = 'csv' | 'ndjson' | 'json';

/**
 * A place a cell may start, followed (after any quotes) by a character that makes it a formula.
 * Lookarounds, so that a CR both ends a line and may start the next formula (`\r=1` needs two).
 */
const FORMULA_START = /(?<=^|\r|\n|;)(?="*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;

export function neutraliseFormula(text: string): string {
  return text.replace(FORMULA_START, "'");
}

const CSV_OPTIONS: Options = { record_delimiter: 'windows', quoted_match: /[;\r\n]/ };

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
      start: () => (options.bom ? '\uFEFF' : '') + stringify([columns.map((c) => neutraliseFormula(c.header))], CSV_OPTIONS),
      rows: (rows) => stringify(rows.map((row) => columns.map((c) => csvCell(c.value(row)))), CSV_OPTIONS),
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
