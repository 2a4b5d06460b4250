// Forms: the list with counts and last submission, create and edit (editor in form-editor.ts),
// the overview with its charts (overview.ts), versions, endpoints and snippets, delete with a confirmation page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endpointUrl, htmlEndpointUrl } from '../../forms/present.ts';
import type { FormRecord } from '../../forms/store.ts';
import { AppError } from '../../http/errors.ts';
import { baseUrlOf } from '../../http/base-url.ts';
import { html, when, type Html } from '../html.ts';
import { actionButton, firstErrors, notice, page, sendPage, type Errors } from '../layout.ts';
import { flashNotice, redirectWith, takeFlash } from '../flash.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { formPage, formTabs, sessionOf } from '../page-context.ts';
import { editorForm, formInputFrom, valuesFromBody, valuesOf, type EditorValues, type KnowledgeBaseOption } from './form-editor.ts';
import { overviewCharts, rangeOf } from './overview.ts';
import { snippetsSection } from './snippets.ts';

type IdParams = { Params: { id: string } };

async function knowledgeBasesOf(deps: DashboardDeps, accountId: string): Promise<KnowledgeBaseOption[]> {
  return (await deps.services.knowledge.list(accountId)).map((kb) => ({ id: kb.id, name: kb.name }));
}

async function listPage(deps: DashboardDeps, session: Session): Promise<Html> {
  const { forms, submissions } = deps.services;
  const list = await forms.list(session.account.id);
  const rows = await Promise.all(
    list.map(async (form) => {
      const latest = await submissions.list(session.account.id, form.id, { filter: 'all', page: 1, pageSize: 1 });
      return { form, last: latest.data[0]?.created_at ?? null };
    }),
  );
  const table = html`<div class="table-wrap" role="region" aria-label="Your forms" tabindex="0"><table>
  <caption class="visually-hidden">Your forms</caption>
  <thead><tr><th scope="col">Name</th><th scope="col" class="num">Submissions</th><th scope="col" class="num">Spam</th><th scope="col">Last submission</th></tr></thead>
  <tbody id="forms-rows" data-poll="/forms" data-live="/live">${rows.map(
    ({ form, last }) => html`<tr data-id="${form.id}">
    <td><a href="/forms/${form.id}/inbox" class="strong">${form.name}</a><div class="muted small">${form.slug} · ${form.visibility}</div></td>
    <td class="num">${form.submissionCount - form.spamCount}</td>
    <td class="num">${form.spamCount}</td>
    <td>${when(last)}</td>
  </tr>`,
  )}</tbody></table></div>`;
  const empty = html`<div class="empty panel"><h2>No forms yet</h2><p>Create a form, paste its snippet into your site, and submissions arrive here.</p><a class="button primary" href="/forms/new">Create your first form</a></div>`;
  return page({
    title: 'Forms',
    session,
    section: 'forms',
    body: html`<div class="page-head row-between"><h1>Forms</h1>${list.length ? html`<a class="button primary" href="/forms/new">New form</a>` : ''}</div>
${list.length ? table : empty}`,
  });
}

function editorPage(deps: DashboardDeps, session: Session, form: FormRecord | null, values: EditorValues, errors: Errors, kbs: KnowledgeBaseOption[]): Html {
  const title = form ? `Edit ${form.name}` : 'New form';
  return page({
    title,
    session,
    section: 'forms',
    body: html`${form ? formTabs(form, 'edit') : html`<div class="page-head"><p class="crumbs"><a href="/forms">Forms</a> /</p><h1>New form</h1></div>`}
${Object.keys(errors).length ? notice('error', 'Some fields need your attention.') : ''}
${editorForm({ session, action: form ? `/forms/${form.id}/edit` : '/forms/new', submit: form ? 'Save changes' : 'Create form', values, errors, knowledgeBases: kbs, suggestSlug: !form })}`,
  });
}

async function overviewPage(request: FastifyRequest, deps: DashboardDeps, session: Session, form: FormRecord, created: Html = html``): Promise<Html> {
  const base = baseUrlOf(request, deps.config.publicUrl);
  const versions = await deps.services.forms.versions(session.account.id, form.id);
  const endpoint = endpointUrl(base, form.version);
  const range = rangeOf(request.query);
  const activity = await deps.services.analysis.overview(session.account.id, form.id, range);
  const empty = html`<h3>No submissions in the last ${range} days</h3><p>Paste the snippet below into your site, or send a test submission with its <code>curl</code> line: it is charted here at once.</p><a class="button primary" href="#snippets-title">Get the snippet</a>`;
  return formPage(session, form, 'overview', form.name, html`
${created}
${overviewCharts(activity, (r) => `/forms/${form.id}?range=${r}`, empty)}
<section class="panel" aria-labelledby="endpoint-title">
  <h2 id="endpoint-title">Endpoint</h2>
  <div class="copy-row"><code id="endpoint">${endpoint}</code><button type="button" class="button secondary small" data-copy="#endpoint">Copy</button></div>
  <dl class="facts">
    <div><dt>Submissions</dt><dd>${form.submissionCount - form.spamCount}</dd></div>
    <div><dt>Spam</dt><dd>${form.spamCount}</dd></div>
    <div><dt>Visibility</dt><dd>${form.visibility}</dd></div>
    <div><dt>Version</dt><dd>${form.version.number}</dd></div>
  </dl>
</section>
<section class="panel" aria-labelledby="versions-title">
  <h2 id="versions-title">Versions</h2>
  <p class="muted">A change of fields or slug mints a new endpoint; older endpoints keep accepting submissions for their version.</p>
  <div class="table-wrap" role="region" aria-labelledby="versions-title" tabindex="0"><table>
  <thead><tr><th scope="col">Version</th><th scope="col">Endpoint</th><th scope="col">Fields</th><th scope="col">Created</th></tr></thead>
  <tbody>${versions.map(
    (v) => html`<tr><td>${v.number}${v.id === form.version.id ? html` <span class="badge">current</span>` : ''}</td><td><code class="wrap">${endpointUrl(base, v)}</code></td><td>${v.schema.fields.map((f) => f.name).join(', ')}</td><td>${when(v.createdAt)}</td></tr>`,
  )}</tbody></table></div>
</section>
${snippetsSection(form, endpoint, htmlEndpointUrl(base, form.version))}
<section class="panel danger-zone" aria-labelledby="delete-title">
  <h2 id="delete-title">Delete this form</h2>
  <p>Its submissions, versions and notifications go with it.</p>
  <a class="button danger" href="/forms/${form.id}/delete">Delete form…</a>
</section>`);
}

function validationErrors(error: unknown): Errors | null {
  return error instanceof AppError && error.code === 'validation_error' ? firstErrors(error.details) : null;
}

export async function formPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { forms } = deps.services;
  const ownForm = (request: FastifyRequest<IdParams>) => forms.get(sessionOf(request).account.id, request.params.id);
  const show = (reply: FastifyReply, markup: Html, status = 200) => sendPage(reply, markup, status);

  app.get('/forms', async (request, reply) => show(reply, await listPage(deps, sessionOf(request))));

  app.get('/forms/new', async (request, reply) => {
    const session = sessionOf(request);
    return show(reply, editorPage(deps, session, null, valuesOf(null), {}, await knowledgeBasesOf(deps, session.account.id)));
  });

  app.post('/forms/new', async (request, reply) => {
    const session = sessionOf(request);
    try {
      const { form, submissionToken } = await forms.create(session.account.id, formInputFrom(request.body, 'create'));
      return redirectWith(request, reply, deps, `/forms/${form.id}`, submissionToken
        ? { kind: 'ok', text: 'Form created.', secret: { label: 'Submission token of this private form.', value: submissionToken } }
        : { kind: 'ok', text: 'Form created.' });
    } catch (error) {
      const errors = validationErrors(error);
      if (!errors) throw error;
      return show(reply, editorPage(deps, session, null, valuesFromBody(request.body), errors, await knowledgeBasesOf(deps, session.account.id)), 422);
    }
  });

  app.get<IdParams>('/forms/:id', async (request, reply) => {
    const form = await ownForm(request);
    return show(reply, await overviewPage(request, deps, sessionOf(request), form, flashNotice(await takeFlash(request, deps))));
  });

  app.get<IdParams>('/forms/:id/edit', async (request, reply) => {
    const session = sessionOf(request);
    const form = await ownForm(request);
    return show(reply, editorPage(deps, session, form, valuesOf(form), {}, await knowledgeBasesOf(deps, session.account.id)));
  });

  app.post<IdParams>('/forms/:id/edit', async (request, reply) => {
    const session = sessionOf(request);
    const current = await ownForm(request);
    try {
      const { form, submissionToken } = await forms.update(session.account.id, current.id, formInputFrom(request.body, 'update'));
      return redirectWith(request, reply, deps, `/forms/${form.id}`, submissionToken
        ? { kind: 'ok', text: 'Changes saved.', secret: { label: 'Submission token of this now private form.', value: submissionToken } }
        : { kind: 'ok', text: 'Changes saved.' });
    } catch (error) {
      const errors = validationErrors(error);
      if (!errors) throw error;
      return show(reply, editorPage(deps, session, current, valuesFromBody(request.body), errors, await knowledgeBasesOf(deps, session.account.id)), 422);
    }
  });

  app.get<IdParams>('/forms/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    const form = await ownForm(request);
    return show(reply, page({
      title: `Delete ${form.name}`,
      session,
      section: 'forms',
      body: html`<div class="panel narrow-panel">
  <h1>Delete “${form.name}”?</h1>
  <p>This deletes the form, its ${form.submissionCount} submission${form.submissionCount === 1 ? '' : 's'}, every version's endpoint and its notifications. It cannot be undone.</p>
  <div class="actions">${actionButton(session, `/forms/${form.id}/delete`, 'Delete form', 'danger')}<a class="button secondary" href="/forms/${form.id}">Cancel</a></div>
</div>`,
    }));
  });

  app.post<IdParams>('/forms/:id/delete', async (request, reply) => {
    const form = await forms.delete(sessionOf(request).account.id, request.params.id);
    request.log.info({ form: form.id }, 'form deleted from the dashboard');
    return reply.redirect('/forms', 303);
  });
}
