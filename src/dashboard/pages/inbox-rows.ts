// The inbox's rows: the fragment the live update swaps into #inbox-rows. Each row is led by who
// sent it and what they want, bold until opened, with its time in words (the exact time on hover)
// and its language by name when it is not the owner's own; a checkbox selects it for the bulk bar (form="bulk-form", so the rows
// need not sit inside that form and can be swapped on their own).
import type { FormRecord } from '../../forms/store.ts';
import type { Submission } from '../../submissions/store.ts';
import { html, when, type Html } from '../html.ts';
import { submissionUrl, type View } from './inbox-view.ts';
import { languageName, relativeTime, rowFacts, senderOf, snippetOf, subjectOf } from './submission-summary.ts';

/** What the rows are shown against: the time now, and the owner's own language (not worth naming on every row). */
export interface RowContext {
  now: Date;
  ownLanguage: string;
  /** The form has no submissions at all, in any tab. */
  formEmpty: boolean;
}

/** A file field of the current schema holds at least one file (JSON clients cannot put values there). */
function hasFiles(form: FormRecord, s: Submission): boolean {
  return form.version.schema.fields.some((field) => field.type === 'file' && Array.isArray(s.data[field.name]) && (s.data[field.name] as unknown[]).length > 0);
}

function row(form: FormRecord, view: View, s: Submission, context: RowContext): Html {
  const sender = senderOf(s.data) ?? 'Anonymous';
  const subject = subjectOf(s.data);
  const snippet = snippetOf(s.data, subject);
  const facts = rowFacts(s);
  const flags = [
    hasFiles(form, s) ? html`<span class="attachment" title="Has files" role="img" aria-label="Has files">📎</span>` : '',
    view.tab === 'all' && s.spam_flag ? html`<span class="badge spam">Spam</span>` : '',
    view.tab !== 'done' && s.done ? html`<span class="badge">Done</span>` : '',
    facts.map((fact) => html`<span class="badge status-${fact}">${fact}</span>`),
    s.original_language && s.original_language !== context.ownLanguage ? html`<span class="badge lang-name" lang="en">${languageName(s.original_language)}</span>` : '',
  ];
  return html`<tr class="${s.read ? 'read' : 'unread'}" data-id="${s.id}">
  <td class="pick"><input type="checkbox" name="ids" value="${s.id}" form="bulk-form" aria-label="Select the submission from ${sender}"></td>
  <th scope="row" class="from">${s.read ? '' : html`<span class="visually-hidden">Unread: </span>`}<a href="${submissionUrl(form, s.id, view)}">${sender}</a></th>
  <td class="what"><span class="subject">${subject || html`<span class="muted">(no message)</span>`}</span>${snippet ? html` <span class="row-snippet">${snippet}</span>` : ''}</td>
  <td class="flags">${flags}</td>
  <td class="when"><time datetime="${s.created_at}" title="${when(s.created_at)}">${relativeTime(s.created_at, context.now)}</time></td>
</tr>`;
}

export function rowsMarkup(form: FormRecord, view: View, rows: Submission[], context: RowContext): Html {
  if (rows.length === 0) {
    const empty = context.formEmpty ? 'Nothing here yet.' : view.text || view.status ? 'Nothing matches this search.'
      : view.tab === 'inbox' ? 'All done: nothing waiting here.' : 'Nothing here.';
    return html`<tr><td colspan="5" class="empty-row">${empty}</td></tr>`;
  }
  return html`${rows.map((s) => row(form, view, s, context))}`;
}
