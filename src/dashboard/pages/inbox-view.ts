// What the inbox shows, as its URL says it: a tab (Inbox, Done, Spam, All), search text and a
// processing status. The submission page keeps it in its links, for previous and next within the
// same listing and the way back.
import type { SubmissionsTable } from '../../db/tables.ts';
import type { FormRecord } from '../../forms/store.ts';
import type { Selection } from '../../submissions/triage-store.ts';

export type Tab = 'inbox' | 'done' | 'spam' | 'all';
export const TABS: Array<[Tab, string]> = [['inbox', 'Inbox'], ['done', 'Done'], ['spam', 'Spam'], ['all', 'All']];
export const STATUSES: Array<SubmissionsTable['processing_status']> = ['pending', 'processing', 'completed', 'skipped', 'failed'];
export const MAX_SEARCH = 200;

/** Inbox: neither spam nor done. Done: done, not spam. Spam: all spam, done or not. All: everything. */
const SPLITS: Record<Tab, Selection> = {
  inbox: { filter: 'inbox', done: false },
  done: { filter: 'inbox', done: true },
  spam: { filter: 'spam' },
  all: { filter: 'all' },
};

export interface View {
  tab: Tab;
  text: string;
  status: SubmissionsTable['processing_status'] | null;
}

/** The view a query string (or a posted form) names; anything unknown falls back to the Inbox, unfiltered. */
export function viewOf(query: unknown): View {
  const q = (query ?? {}) as Record<string, unknown>;
  const tab = TABS.find(([t]) => t === q.tab)?.[0] ?? 'inbox';
  const text = (typeof q.q === 'string' ? q.q : '').trim().slice(0, MAX_SEARCH);
  const status = STATUSES.find((s) => s === q.status) ?? null;
  return { tab, text, status };
}

/** What the view selects, as the submission services take it. */
export function selectionOf(view: View): Selection {
  return { ...SPLITS[view.tab], ...(view.text && { text: view.text }), ...(view.status && { processingStatus: view.status }) };
}

/** The view as query parameters, leaving out defaults. */
export function viewParams(view: View, extra: Record<string, string | number | null> = {}): URLSearchParams {
  const search = new URLSearchParams();
  if (view.tab !== 'inbox') search.set('tab', view.tab);
  if (view.text) search.set('q', view.text);
  if (view.status) search.set('status', view.status);
  for (const [key, value] of Object.entries(extra)) if (value !== null && value !== '') search.set(key, String(value));
  return search;
}

function withQuery(path: string, search: URLSearchParams): string {
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

export function inboxUrl(form: Pick<FormRecord, 'id'>, view: View, extra: Record<string, string | number | null> = {}): string {
  return withQuery(`/forms/${form.id}/inbox`, viewParams(view, extra));
}

export function submissionUrl(form: Pick<FormRecord, 'id'>, id: string, view: View, extra: Record<string, string | number | null> = {}): string {
  return withQuery(`/forms/${form.id}/submissions/${id}`, viewParams(view, extra));
}
