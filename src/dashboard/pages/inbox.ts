// A form's inbox: Inbox / Done / Spam / All tabs, newest first, rows selectable for the bulk bar
// (mark done, not done, spam, not spam, delete; on the selected rows or on all matching the view),
// whose POST answers 303 back to the same view with a notice. Plain browsing pages by number
// through the API's listing (deep pages seek by block counts); a search or status filter pages by
// keyset. New rows arrive through the live update of #inbox-rows (dashboard.js); inbox.js adds
// the keyboard shortcuts and the selection helpers.
import { can } from '../../workspaces/permissions.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FormRecord } from '../../forms/store.ts';
import type { Submission } from '../../submissions/store.ts';
import { BULK_ACTIONS, BULK_IDS, type BulkAction } from '../../submissions/triage.ts';
import { html, type Html } from '../html.ts';
import { csrfField, notice, sendPage } from '../layout.ts';
import { assetUrl } from '../assets.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { formPage, sessionOf } from '../page-context.ts';
import { attachment } from '../../exports/routes.ts';
import { text } from '../form-input.ts';
import { inboxUrl, MAX_SEARCH, selectionOf, STATUSES, TABS, viewOf, viewParams, type Tab, type View } from './inbox-view.ts';
import { rowsMarkup } from './inbox-rows.ts';

export const PAGE_SIZE = 20;

interface Listing {
  view: View;
  rows: Submission[];
  /** Page numbers when browsing; a cursor when searching. */
  page: number | null;
  totalPages: number;
  nextCursor: string | null;
  counts: Record<Tab, number>;
}

async function listing(deps: DashboardDeps, session: Session, form: FormRecord, query: Record<string, unknown>): Promise<Listing> {
  const view = viewOf(query);
  const { filter, done } = selectionOf(view);
  const counts = await deps.services.triage.tabCounts(session.account.id, form.id);
  const split = { filter, ...(done !== undefined && { done }) };
  if (view.text || view.status) {
    const found = await deps.services.submissions.search(session.account.id, form.id, {
      ...split,
      limit: PAGE_SIZE,
      ...(view.text && { text: view.text }),
      ...(view.status && { processingStatus: view.status }),
      ...(typeof query.cursor === 'string' && query.cursor !== '' && { cursor: query.cursor }),
    });
    return { view, rows: found.data, page: null, totalPages: 0, nextCursor: found.next_cursor, counts };
  }
  const pageNumber = /^\d{1,9}$/.test(String(query.page ?? '')) ? Math.max(1, Number(query.page)) : 1;
  const result = await deps.services.submissions.list(session.account.id, form.id, { ...split, page: pageNumber, pageSize: PAGE_SIZE });
  return { view, rows: result.data, page: pageNumber, totalPages: result.meta.total_pages, nextCursor: null, counts };
}

/** The export of what the inbox shows: its tab, search text and status (the exports' one implementation). */
function exportUrl(form: FormRecord, view: View): string {
  return `/forms/${form.id}/export?${viewParams(view, { tab: view.tab }).toString()}`;
}

function pager(form: FormRecord, l: Listing): Html {
  if (l.page === null) {
    // A search reads a window of positions at a time: a short page may still have older matches.
    const next = l.nextCursor === null ? null : inboxUrl(form, l.view, { cursor: l.nextCursor });
    return html`<nav class="pager" aria-label="Pages"><a href="${inboxUrl(form, l.view)}">Newest</a>${next ? html`<a href="${next}" rel="next">Older →</a>` : html`<span class="muted">End of results</span>`}</nav>`;
  }
  if (l.totalPages <= 1) return html``;
  const at = (p: number) => inboxUrl(form, l.view, { page: p === 1 ? null : p });
  return html`<nav class="pager" aria-label="Pages">
  ${l.page > 1 ? html`<a href="${at(1)}">« First</a><a href="${at(l.page - 1)}" rel="prev">← Newer</a>` : ''}
  <span>Page ${l.page} of ${l.totalPages}</span>
  ${l.page < l.totalPages ? html`<a href="${at(l.page + 1)}" rel="next">Older →</a><a href="${at(l.totalPages)}">Last »</a>` : ''}
  <form method="get" action="/forms/${form.id}/inbox" class="jump">
    <input type="hidden" name="tab" value="${l.view.tab}">
    <label for="jump-page">Go to page</label>
    <input id="jump-page" name="page" type="number" min="1" max="${l.totalPages}" inputmode="numeric">
    <button type="submit" class="button secondary small">Go</button>
  </form>
</nav>`;
}

/** The bulk bar's buttons for a tab; `data-key` names the shortcut that presses each. */
const BUTTONS: Record<Tab, Array<[BulkAction, string, string]>> = {
  inbox: [['done', 'Mark done', 'e'], ['spam', 'Spam', '!']],
  done: [['not_done', 'Not done', 'e'], ['spam', 'Spam', '!']],
  spam: [['not_spam', 'Not spam', '!']],
  all: [['done', 'Mark done', 'e'], ['not_done', 'Not done', ''], ['spam', 'Spam', '!'], ['not_spam', 'Not spam', '']],
};

function bulkBar(session: Session, form: FormRecord, l: Listing): Html {
  const { view } = l;
  const searching = Boolean(view.text || view.status);
  const allLabel = searching ? 'Select all matching this search' : `Select all ${l.counts[view.tab]} in ${TABS.find(([t]) => t === view.tab)![1]}`;
  return html`<form id="bulk-form" method="post" action="/forms/${form.id}/inbox/bulk" class="bulk-bar" aria-label="Act on the selected submissions">
  ${csrfField(session)}
  <input type="hidden" name="tab" value="${view.tab}"><input type="hidden" name="q" value="${view.text}"><input type="hidden" name="status" value="${view.status ?? ''}">
  <div class="select-all">
    <span class="check"><input type="checkbox" id="select-page" data-select-page hidden><label for="select-page" hidden>Select this page</label></span>
    <span class="check"><input type="checkbox" id="all-matching" name="all" value="true"><label for="all-matching" id="all-matching-label" data-live-part>${allLabel}</label></span>
    <span class="muted small" id="selected-count" aria-live="polite"></span>
  </div>
  <div class="bulk-actions" role="group" aria-label="With the selected">
    ${BUTTONS[view.tab].map(([action, label, key]) => html`<button type="submit" name="action" value="${action}" class="button secondary small"${key ? html` data-key="${key}" aria-keyshortcuts="${key === '!' ? 'Shift+1' : key}"` : ''}>${label}</button>`)}
    <button type="submit" name="action" value="delete" class="button danger small" data-key="#" aria-keyshortcuts="Shift+3" data-confirm="Delete the selected submissions for good?">Delete</button>
    <a class="button secondary small" href="${exportUrl(form, view)}" download>Export CSV</a>
    <button type="button" class="button secondary small" data-shortcuts hidden aria-keyshortcuts="Shift+/">Shortcuts <kbd>?</kbd></button>
  </div>
</form>`;
}

const SHORTCUTS: Array<[string, string]> = [
  ['j / k', 'Next / previous submission'],
  ['o or Enter', 'Open it'],
  ['x', 'Select it'],
  ['e', 'Mark done (on Done: not done)'],
  ['!', 'Spam (on Spam: not spam)'],
  ['#', 'Delete'],
  ['/', 'Search'],
  ['?', 'This list'],
];

function shortcutsDialog(): Html {
  return html`<dialog id="shortcuts" aria-labelledby="shortcuts-title">
  <h2 id="shortcuts-title">Keyboard shortcuts</h2>
  <dl class="shortcuts">${SHORTCUTS.map(([keys, what]) => html`<div><dt><kbd>${keys}</kbd></dt><dd>${what}</dd></div>`)}</dl>
  <p class="muted small">Actions apply to the selected submissions, or to the current one when none is selected.</p>
  <form method="dialog"><button class="button secondary" type="submit">Close</button></form>
</dialog>`;
}

const VERBS: Record<BulkAction, string> = {
  done: 'marked done', not_done: 'moved back to the inbox', spam: 'marked as spam', not_spam: 'marked as not spam',
  delete: 'deleted', read: 'marked read', unread: 'marked unread',
};

/** The notice a bulk POST's redirect asks for: built from its action and counts only, never from text in the URL. */
function bulkNotice(query: Record<string, unknown>): Html {
  if (query.notice === 'none') return notice('warn', 'Select at least one submission first.');
  const action = BULK_ACTIONS.find((a) => a === query.notice);
  if (!action) return html``;
  const count = (name: string) => (/^\d{1,9}$/.test(String(query[name] ?? '')) ? Number(query[name]) : 0);
  const n = count('n');
  const failed = count('failed');
  return notice(failed ? 'warn' : 'ok', `${n} submission${n === 1 ? '' : 's'} ${VERBS[action]}.${failed ? ` ${failed} could not be changed (still being processed, or already gone).` : ''}`);
}

function inboxPage(session: Session, form: FormRecord, l: Listing, query: Record<string, unknown>, now: Date): Html {
  const { view } = l;
  const live = l.page === 1 && !view.text && !view.status;
  return formPage(session, form, 'inbox', `${form.name} inbox`, html`
<link rel="stylesheet" href="${assetUrl('inbox.css')}">
${bulkNotice(query)}
<div class="toolbar">
  <nav class="segmented" aria-label="Mailbox"><ul id="inbox-tabs" data-live-part>${TABS.map(
    ([key, label]) => html`<li><a href="${inboxUrl(form, { tab: key, text: '', status: null })}"${key === view.tab ? html` aria-current="page"` : ''}>${label} <span class="count">${l.counts[key]}</span></a></li>`,
  )}</ul></nav>
  <form method="get" action="/forms/${form.id}/inbox" class="search" role="search">
    <input type="hidden" name="tab" value="${view.tab}">
    <label for="inbox-q" class="visually-hidden">Search submissions</label>
    <input id="inbox-q" name="q" type="search" value="${view.text}" placeholder="Search submissions" maxlength="${MAX_SEARCH}" aria-keyshortcuts="/">
    <label for="inbox-status" class="visually-hidden">Processing status</label>
    <select id="inbox-status" name="status"><option value="">Any status</option>${STATUSES.map(
      (s) => html`<option value="${s}"${s === view.status ? html` selected` : ''}>${s}</option>`,
    )}</select>
    <button type="submit" class="button secondary">Search</button>
  </form>
</div>
${can(session, 'triage') ? bulkBar(session, form, l) : ''}
<div class="table-wrap" role="region" aria-label="Submissions" tabindex="0"><table class="inbox" data-tab="${view.tab}">
  <caption class="visually-hidden">Submissions, newest first; unread ones in bold</caption>
  <thead><tr><th scope="col"><span class="visually-hidden">Select</span></th><th scope="col">From</th><th scope="col">Message</th><th scope="col"><span class="visually-hidden">Details</span></th><th scope="col">Received</th></tr></thead>
  <tbody id="inbox-rows"${live ? html` data-poll="${inboxUrl(form, view)}" data-live="/live?form=${form.id}" data-announce="submission"` : ''}>${rowsMarkup(form, view, l.rows, { now, ownLanguage: session.account.language, formEmpty: l.counts.all === 0 })}</tbody>
</table></div>
<p id="live-status" class="visually-hidden" role="status" aria-live="polite"></p>
${pager(form, l)}
${shortcutsDialog()}
<script type="module" src="${assetUrl('inbox.js')}"></script>`);
}

type InboxRequest = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, unknown> }>;

/** Every id a form body names, at most `limit`. */
function idsIn(body: unknown, limit: number): string[] {
  const value = (body as Record<string, unknown> | undefined)?.ids;
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return [...new Set(list.filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 100))].slice(0, limit);
}

export async function inboxPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/forms/:id/inbox', async (request: InboxRequest, reply) => {
    const session = sessionOf(request);
    const form = await deps.services.forms.get(session.account.id, request.params.id);
    const l = await listing(deps, session, form, request.query);
    return sendPage(reply, inboxPage(session, form, l, request.query, new Date()));
  });

  // Acts on the selected rows, or on all the view matches, then back to the same view (PRG).
  app.post('/forms/:id/inbox/bulk', async (request: InboxRequest, reply) => {
    const session = sessionOf(request);
    const form = await deps.services.forms.get(session.account.id, request.params.id);
    const view = viewOf(request.body);
    const action = BULK_ACTIONS.find((a) => a === text(request.body, 'action'));
    const all = text(request.body, 'all') === 'true';
    const ids = idsIn(request.body, BULK_IDS);
    if (!action || (!all && ids.length === 0)) return reply.redirect(inboxUrl(form, view, { notice: 'none' }), 303);
    const result = await deps.services.triage.bulk(
      { accountId: session.account.id, keyId: `dashboard:${session.account.id}`, member: session.person.email }, form.id, action, all ? { where: selectionOf(view) } : { ids },
    );
    await deps.services.audit.recordKeyless({
      accountId: session.account.id, surface: 'dashboard', actor: session.account.id, operation: `bulk ${action}`, targetId: form.id,
      detail: `${result.changed} changed of ${result.matched}${all ? ' matching' : ''}`,
    });
    return reply.redirect(inboxUrl(form, view, { notice: action, n: result.changed, failed: result.failed_count || null }), 303);
  });

  // The inbox as a CSV file (with a BOM: someone who clicks here most likely opens it in a spreadsheet).
  app.get('/forms/:id/export', async (request: InboxRequest, reply) => {
    const session = sessionOf(request);
    const view = viewOf(request.query);
    const { filter, done, text: search, processingStatus } = selectionOf(view);
    const opened = await deps.services.exports.open(session.account.id, request.params.id, {
      filter, ...(done !== undefined && { done }), ...(search && { text: search }), ...(processingStatus && { processingStatus }),
    }, 'csv', { bom: true });
    await deps.services.audit.recordKeyless({
      accountId: session.account.id, surface: 'dashboard', actor: session.account.id, operation: 'export', targetId: opened.form.id, detail: `csv, ${view.tab}`,
    });
    return reply.header('content-type', opened.contentType).header('content-disposition', attachment(opened.filename)).header('cache-control', 'no-store').send(opened.body);
  });
}
