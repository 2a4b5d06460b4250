// The rules of exports: what an owner may export, the checks on its parameters, and the stream that
// writes it chunk by chunk (the next chunk is read only when the client has taken the last one, so
// memory stays flat whatever the size; a client that goes away stops the reading).
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fail } from '../http/errors.ts';
import type { FormRecord } from '../forms/store.ts';
import type { FormService } from '../forms/service.ts';
import type { SpamFilter } from '../submissions/store.ts';
import type { SubmissionsTable } from '../db/tables.ts';
import { exportColumns, fileFields } from './columns.ts';
import { dataWithLinks, type FileLinkDeps } from '../files/link-lists.ts';
import { encoderFor, type ExportFormat } from './encoders.ts';
import { countRows, walkRows, type ExportQuery, type ExportRow, type ExportStore } from './store.ts';

/**
 * Rows per chunk, one statement each. Small, so that what a chunk allocates (rows, parsed values,
 * text) dies young: a million-row export in one process (600,000 rows, heap after a full collection
 * back at its idle size each time, so nothing leaks) peaked at 141 MB of heap with chunks of 250,
 * 80 MB with 50 and 54 MB with 100, against 36 MB idle; V8 had moved the larger chunks' objects
 * to the old generation, which is only collected when it reaches its limit.
 */
export const EXPORT_CHUNK = 100;

/** As given by a caller (a query string, an MCP tool, a dashboard page): checked here. */
export interface ExportRequest {
  filter: SpamFilter;
  done?: boolean;
  from?: string;
  to?: string;
  text?: string;
  processingStatus?: SubmissionsTable['processing_status'];
}

export interface ExportStream {
  form: FormRecord;
  filename: string;
  contentType: string;
  body: Readable;
}

const MAX_TEXT = 200;
// Stored times compare as text on SQLite: only four-digit years sort right.
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** An ISO 8601 time between the years 0 and 9999, as UTC ISO text. */
function isoTime(name: 'from' | 'to', value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = value.length <= 40 && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > LATEST) {
    throw fail.invalidParameters(`${name} must be an ISO 8601 date or time between the years 0000 and 9999, such as 2026-01-31 or 2026-01-31T12:00:00Z.`, { [name]: ['must be an ISO 8601 date or time'] });
  }
  return new Date(ms).toISOString();
}

export function checkExportQuery(request: ExportRequest): ExportQuery {
  const from = isoTime('from', request.from);
  const to = isoTime('to', request.to);
  if (from && to && from > to) throw fail.invalidParameters('from must not be later than to.', { from: ['is later than to'] });
  const text = request.text?.trim();
  if (text && text.length > MAX_TEXT) throw fail.invalidParameters(`text must be at most ${MAX_TEXT} characters.`, { text: ['is too long'] });
  return { filter: request.filter, ...(request.done !== undefined && { done: request.done }), ...(from && { from }), ...(to && { to }), ...(text && { text }), ...(request.processingStatus && { processingStatus: request.processingStatus }) };
}

/** `contact-submissions-2026-11-25.csv`: the slug is lowercase letters, digits and hyphens already. */
export function exportFilename(slug: string, extension: string, now: Date): string {
  return `${slug}-submissions-${now.toISOString().slice(0, 10)}.${extension}`;
}

export function exportService(deps: { store: ExportStore; forms: FormService; fileLinks?: FileLinkDeps; clock?: () => Date }) {
  const { store, forms } = deps;
  const clock = deps.clock ?? (() => new Date());

  return {
    /**
     * Up to `limit` matching rows for a caller that shows them inline (an agent), and how many match
     * in all: the form's counters when nothing narrows the filter, else a count window by window.
     */
    async preview(accountId: string, formId: string, request: ExportRequest, limit: number): Promise<{ form: FormRecord; rows: ExportRow[]; total: number }> {
      const form = await forms.get(accountId, formId);
      const query = checkExportQuery(request);
      const last = await store.lastSeq(form.id);
      if (last === 0) return { form, rows: [], total: 0 };
      const range = { first: await store.firstSeq(form.id), last };
      const rows: ExportRow[] = [];
      for await (const chunk of walkRows(store, form.id, query, range, limit + 1)) {
        rows.push(...chunk);
        if (rows.length > limit) break;
      }
      if (rows.length <= limit) return { form, rows, total: rows.length };
      const narrowed = query.from || query.to || query.text || query.processingStatus || query.done !== undefined;
      const counted = query.filter === 'all' ? form.submissionCount : query.filter === 'spam' ? form.spamCount : form.submissionCount - form.spamCount;
      return { form, rows: rows.slice(0, limit), total: narrowed ? await countRows(store, form.id, query, range) : counted };
    },

    /** Checks everything before a byte is sent: a bad parameter is a clear 400, not a broken download. */
    async open(accountId: string, formId: string, request: ExportRequest, format: ExportFormat, options: { bom: boolean }): Promise<ExportStream> {
      const form = await forms.get(accountId, formId);
      const query = checkExportQuery(request);
      const last = await store.lastSeq(form.id);
      const versions = await store.versions(form.id);
      const columns = exportColumns(versions, form.settings.localisation_enabled || (await store.hasTranslations(form.id, last)));
      const encoder = encoderFor(format, columns, options);
      // Files as signed links (INTAKE_FILE_LINK_TTL_S), made as each chunk is written.
      const files = fileFields(versions);
      const links = deps.fileLinks;
      // A quarantined file (malware found) is named with its signature and gets no link: it would answer 403.
      const linked = async (rows: ExportRow[]): Promise<ExportRow[]> => {
        if (!links || files.length === 0) return rows;
        const quarantined = links.quarantinedAmong ? await links.quarantinedAmong(rows.map((row) => row.id)) : new Map<string, string>();
        return rows.map((row) => ({ ...row, data: dataWithLinks(row.data, files, links.sign, links.ttlSeconds, quarantined) }));
      };
      async function* text(): AsyncGenerator<string> {
        yield encoder.start();
        let first = true;
        if (last > 0) {
          for await (const chunk of walkRows(store, form.id, query, { first: await store.firstSeq(form.id), last }, EXPORT_CHUNK)) {
            yield encoder.rows(await linked(chunk), first);
            first = false;
            // One chunk per turn of the event loop: everything else that is ready (submissions above
            // all) runs between two chunks. Without it, a fast reader kept the export going from one
            // promise to the next, and on SQLite not one submission was answered while it streamed.
            await nextTurn();
          }
        }
        const end = encoder.end();
        if (end) yield end;
      }
      return {
        form,
        filename: exportFilename(form.slug, encoder.extension, clock()),
        contentType: encoder.contentType,
        // Not object mode: the stream counts bytes, so its buffer (16 KB) is what waits for the client.
        body: Readable.from(text(), { objectMode: false }),
      };
    },
  };
}

export type ExportService = ReturnType<typeof exportService>;
