// What the page modules share: the logged-in session of a request, and the frame of a page about one form.
import type { FastifyRequest } from 'fastify';
import type { FormRecord } from '../forms/store.ts';
import { AppError } from '../http/errors.ts';
import { html, type Html } from './html.ts';
import { page } from './layout.ts';
import type { Session } from './service.ts';

export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw new AppError('unauthorized', 401, 'Log in first.');
  return request.session;
}

type FormTab = 'overview' | 'inbox' | 'notifications' | 'edit';

/** A page about one form: its name, its tabs, then `body`. */
export function formPage(session: Session, form: FormRecord, tab: FormTab, title: string, body: Html): Html {
  return page({ title, session, section: 'forms', body: html`${formTabs(form, tab)}${body}` });
}

/** The tabs of one form's pages. */
export function formTabs(form: FormRecord, current: FormTab): Html {
  const tabs: Array<[typeof current, string, string]> = [
    ['overview', `/forms/${form.id}`, 'Overview'],
    ['inbox', `/forms/${form.id}/inbox`, 'Inbox'],
    ['notifications', `/forms/${form.id}/notifications`, 'Notifications'],
    ['edit', `/forms/${form.id}/edit`, 'Edit'],
  ];
  return html`<div class="page-head">
  <p class="crumbs"><a href="/forms">Forms</a> /</p>
  <h1>${form.name}</h1>
  <nav class="tabs" aria-label="Form"><ul>${tabs.map(
    ([key, href, label]) => html`<li><a href="${href}"${key === current ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>
</div>`;
}
