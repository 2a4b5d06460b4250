// A form's inbox: Inbox / Spam / All tabs, newest first. Plain browsing pages by number through
// the API's listing (deep pages seek by block counts, so page 50,000 is as quick as page 1); a
// search or status filter pages by keyset instead. New rows arrive live (dashboard.js and live.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FormRecord } from '../../forms/store.ts';
import type { SubmissionsTable } from '../../db/tables.ts';
import type { SpamFilter, Submission } from '../../submissions/store.ts';
import { html, when, type Html } from '../html.ts';
import { sendPage } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { formPage, sessionOf } from '../page-context.ts';
import { statusBadge } from './status-badge.ts';
import { attachment } from '../../exports/routes.ts';

export const PAGE_SIZE = 20;
const STATUSES: SubmissionsTableStatus[] = ['pending', 'processing', 'completed', 'skipped', 'failed'];
const TABS: Array<[SpamFilter, string]> = [['inbox', 'Inbox'], ['spam', 'Spam'], ['all', 'All']];
const MAX_SEARCH = 200;
const PREVIEW_LENGTH = 90;
type SubmissionsTableStatus = SubmissionsTable['processing_status'];

interface InboxQuery {
  tab?: string;
  page?: string;
  q?: string;
  status?: string;
  cursor?: string;
}

interface Listing {
  filter: SpamFilter;
  rows: Submission[];
  /** Page numbers when browsing; a cursor when searching. */
  page: number | null;
  totalPages: number;
  nextCursor: string | null;
  text: string;
  status: SubmissionsTableStatus | null;
}

function preview(data: Record<string, unknown>): string {
  const text = Object.values(data)
    .filter((v) => v !== null && v !== '')
    .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
    .join(' · ');
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
}

function rowsMarkup(form: FormRecord, rows: Submission[]): Html {
  if (rows.length === 0) return html`<tr><td colspan="3" class="empty-row">Nothing here yet.</td></tr>`;
  return html`${rows.map(
    (s) => html`<tr data-id="${s.id}">
  <td class="time"><a href="/forms/${form.id}/submissions/${s.id}">${when(s.created_at)}</a></td>
  <td class="preview">${preview(s.data)}</td>
  <td class="badges">${statusBadge(s)}${s.original_language ? html`<span class="badge lang">${s.original_language}</span>` : ''}</td>
</tr>`,
  )}`;
}

async function listing(deps: DashboardDeps, session: Session, form: FormRecord, query: InboxQuery): Promise<Listing> {
  const filter = TABS.some(([t]) => t === query.tab) ? (query.tab as SpamFilter) : 'inbox';
  const text = (typeof query.q === 'string' ? query.q : '').trim().slice(0, MAX_SEARCH);
  const status = STATUSES.find((s) => s === query.status) ?? null;
  if (text || status) {
    const found = await deps.services.submissions.search(session.account.id, form.id, {
      filter,
      limit: PAGE_SIZE,
      ...(text && { text }),
      ...(status && { processingStatus: status }),
      ...(typeof query.cursor === 'string' && query.cursor !== '' && { cursor: query.cursor }),
    });
    return { filter, rows: found.data, page: null, totalPages: 0, nextCursor: found.next_cursor, text, status };
  }
  const pageNumber = /^\d{1,9}$/.test(query.page ?? '') ? Math.max(1, Number(query.page)) : 1;
  const result = await deps.services.submissions.list(session.account.id, form.id, { filter, page: pageNumber, pageSize: PAGE_SIZE });
  return { filter, rows: result.data, page: pageNumber, totalPages: result.meta.total_pages, nextCursor: null, text, status };
}

function inboxUrl(form: FormRecord, params: Record<string, string | number | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== '' && value !== 1) search.set(key, String(value));
  const qs = search.toString();
  return `/forms/${form.id}/inbox${qs ? `?${qs}` : ''}`;
}

/** The export of what the inbox shows: its tab, search text and status. */
function exportUrl(form: FormRecord, l: Listing): string {
  const search = new URLSearchParams({ tab: l.filter });
  if (l.text) search.set('q', l.text);
  if (l.status) search.set('status', l.status);
  return `/forms/${form.id}/export?${search.toString()}`;
}

function pager(form: FormRecord, l: Listing): Html {
  if (l.page === null) {
    const first = inboxUrl(form, { tab: l.filter, q: l.text, status: l.status });
    // A search reads a window of positions at a time: a short page may still have older matches.
    const next = l.nextCursor === null ? null : inboxUrl(form, { tab: l.filter, q: l.text, status: l.status, cursor: l.nextCursor });
    return html`<nav class="pager" aria-label="Pages"><a href="${first}">Newest</a>${next ? html`<a href="${next}" rel="next">Older →</a>` : html`<span class="muted">End of results</span>`}</nav>`;
  }
  if (l.totalPages <= 1) return html``;
  const at = (p: number) => inboxUrl(form, { tab: l.filter, page: p });
  return html`<nav class="pager" aria-label="Pages">
  ${l.page > 1 ? html`<a href="${at(1)}">« First</a><a href="${at(l.page - 1)}" rel="prev">← Newer</a>` : ''}
  <span>Page ${l.page} of ${l.totalPages}</span>
  ${l.page < l.totalPages ? html`<a href="${at(l.page + 1)}" rel="next">Older →</a><a href="${at(l.totalPages)}">Last »</a>` : ''}
  <form method="get" action="/forms/${form.id}/inbox" class="jump">
    <input type="hidden" name="tab" value="${l.filter}">
    <label for="jump-page">Go to page</label>
    <input id="jump-page" name="page" type="number" min="1" max="${l.totalPages}" inputmode="numeric">
    <button type="submit" class="button secondary small">Go</button>
  </form>
</nav>`;
}

function counts(form: FormRecord): Record<SpamFilter, number> {
  return { inbox: form.submissionCount - form.spamCount, spam: form.spamCount, all: form.submissionCount };
}

function inboxPage(session: Session, form: FormRecord, l: Listing): Html {
  const live = l.page === 1 && !l.text && !l.status;
  const n = counts(form);
  return formPage(session, form, 'inbox', `${form.name} inbox`, html`
<div class="toolbar">
  <nav class="segmented" aria-label="Mailbox"><ul id="inbox-tabs">${TABS.map(
    ([key, label]) => html`<li><a href="${inboxUrl(form, { tab: key })}"${key === l.filter ? html` aria-current="page"` : ''}>${label} <span class="count">${n[key]}</span></a></li>`,
  )}</ul></nav>
  <form method="get" action="/forms/${form.id}/inbox" class="search" role="search">
    <input type="hidden" name="tab" value="${l.filter}">
    <label for="inbox-q" class="visually-hidden">Search submissions</label>
    <input id="inbox-q" name="q" type="search" value="${l.text}" placeholder="Search submissions" maxlength="${MAX_SEARCH}">
    <label for="inbox-status" class="visually-hidden">Processing status</label>
    <select id="inbox-status" name="status"><option value="">Any status</option>${STATUSES.map(
      (s) => html`<option value="${s}"${s === l.status ? html` selected` : ''}>${s}</option>`,
    )}</select>
    <button type="submit" class="button secondary">Search</button>
  </form>
  <a class="button secondary" href="${exportUrl(form, l)}" download>Export CSV</a>
</div>
<div class="table-wrap" role="region" aria-label="Submissions" tabindex="0"><table class="inbox">
  <caption class="visually-hidden">Submissions, newest first</caption>
  <thead><tr><th scope="col">Received</th><th scope="col">Content</th><th scope="col">Status</th></tr></thead>
  <tbody id="inbox-rows"${live ? html` data-poll="${inboxUrl(form, { tab: l.filter })}" data-live="/live?form=${form.id}" data-announce="submission"` : ''}>${rowsMarkup(form, l.rows)}</tbody>
</table></div>
<p id="live-status" class="visually-hidden" role="status" aria-live="polite"></p>
${pager(form, l)}`);
}

type InboxRequest = FastifyRequest<{ Params: { id: string }; Querystring: InboxQuery }>;

export async function inboxPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const load = async (request: InboxRequest) => {
    const session = sessionOf(request);
    const form = await deps.services.forms.get(session.account.id, request.params.id);
    return { session, form, l: await listing(deps, session, form, request.query) };
  };

  app.get('/forms/:id/inbox', async (request: InboxRequest, reply) => {
    const { session, form, l } = await load(request);
    return sendPage(reply, inboxPage(session, form, l));
  });

  // The inbox as a CSV file (with a BOM: someone who clicks here most likely opens it in a spreadsheet).
  app.get('/forms/:id/export', async (request: InboxRequest, reply) => {
    const session = sessionOf(request);
    const filter = TABS.some(([t]) => t === request.query.tab) ? (request.query.tab as SpamFilter) : 'inbox';
    const text = (typeof request.query.q === 'string' ? request.query.q : '').trim().slice(0, MAX_SEARCH);
    const status = STATUSES.find((s) => s === request.query.status);
    const opened = await deps.services.exports.open(session.account.id, request.params.id, { filter, ...(text && { text }), ...(status && { processingStatus: status }) }, 'csv', { bom: true });
    await deps.services.audit.recordKeyless({
      accountId: session.account.id, surface: 'dashboard', actor: session.account.id, operation: 'export', targetId: opened.form.id, detail: `csv, ${filter}`,
    });
    return reply.header('content-type', opened.contentType).header('content-disposition', attachment(opened.filename)).header('cache-control', 'no-store').send(opened.body);
  });

}
