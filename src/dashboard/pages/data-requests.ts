// Account → Data requests: a person asks what the owner holds about them, or to have it deleted.
// Find by address, download it all as JSON, or erase it (after a confirmation that names the count).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { erasureDetail } from '../../data-subjects/service.ts';
import type { SubjectMatch } from '../../data-subjects/store.ts';
import { text } from '../form-input.ts';
import { html, when, type Html } from '../html.ts';
import { input, notice, page, postForm, sendPage, type Errors } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { sessionOf } from '../page-context.ts';
import { redirectWith, takeFlash } from '../flash.ts';

interface Found {
  email: string;
  submissions: SubjectMatch[];
  complete: boolean;
}

function results(session: Session, found: Found): Html {
  const n = found.submissions.length;
  const hidden = html`<input type="hidden" name="email" value="${found.email}">`;
  return html`<section class="panel" aria-labelledby="found-title">
  <h2 id="found-title">${n} submission${n === 1 ? '' : 's'} hold ${found.email}</h2>
  ${found.complete ? '' : notice('warn', 'Some new submissions were not indexed yet: search again in a minute to be sure.')}
  ${n === 0 ? '' : html`<div class="table-wrap" role="region" aria-label="Matching submissions" tabindex="0"><table><caption class="visually-hidden">Matching submissions</caption>
    <thead><tr><th scope="col">Form</th><th scope="col">Received</th></tr></thead>
    <tbody>${found.submissions.map((m) => html`<tr><td>${m.form_name}</td><td><a href="/forms/${m.form_id}/submissions/${m.id}">${when(m.created_at)}</a></td></tr>`)}</tbody>
  </table></div>
  <div class="row">
    ${postForm(session, '/account/data-requests/export', html`${hidden}<button type="submit" class="button secondary">Download all of it (JSON)</button>`, html`class="inline"`)}
    ${postForm(session, '/account/data-requests/erase', html`${hidden}<input type="hidden" name="count" value="${String(n)}">
      <button type="submit" class="button danger" data-confirm="Delete these ${String(n)} submissions and everything derived from them for good?">Erase all of it</button>`, html`class="inline"`)}
  </div>`}
</section>`;
}

function dataRequestsPage(session: Session, options: { errors?: Errors; found?: Found; done?: string; email?: string } = {}): Html {
  return page({
    title: 'Data requests',
    session,
    section: 'account',
    body: html`<div class="page-head"><h1>Data requests</h1><p class="muted">When someone asks what you hold about them, or asks you to delete it (GDPR articles 15 and 17).</p></div>
${options.done ? notice('ok', options.done) : ''}
<section class="panel narrow-panel" aria-labelledby="find-title">
  <h2 id="find-title">Find a person</h2>
  ${postForm(session, '/account/data-requests', html`<div class="row align-end">${input({ name: 'email', label: 'Their email address', type: 'email', value: options.email ?? '', errors: options.errors, required: true })}<button type="submit" class="button primary">Find</button></div>`)}
</section>
${options.found ? results(session, options.found) : ''}`,
  });
}

type Body = FastifyRequest<{ Body: unknown }>;

export async function dataRequestPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { subjects, audit } = deps.services;
  const invalid = (error: unknown): Errors | null => (error instanceof AppError && error.code === 'validation_error' ? { email: 'Enter an email address such as person@example.com.' } : null);

  // The address searched for travels to the results in a sealed flash (flash.ts), never in a URL
  // that logs and browser history would keep.
  app.get('/account/data-requests', async (request, reply) => {
    const session = sessionOf(request);
    const flash = await takeFlash(request, deps);
    const email = flash?.value;
    if (email === undefined) return sendPage(reply, dataRequestsPage(session, flash ? { done: flash.text } : {}));
    try {
      return sendPage(reply, dataRequestsPage(session, { found: await subjects.search(session.account.id, email), email }));
    } catch (error) {
      const errors = invalid(error);
      if (!errors) throw error;
      return sendPage(reply, dataRequestsPage(session, { errors, email }), 422);
    }
  });

  app.post('/account/data-requests', async (request: Body, reply) =>
    redirectWith(request, reply, deps, '/account/data-requests', { kind: 'ok', text: '', value: text(request.body, 'email') }));

  app.post('/account/data-requests/export', async (request: Body, reply) => {
    const session = sessionOf(request);
    const email = text(request.body, 'email');
    try {
      const document = await subjects.export(session.account.id, email);
      return reply.header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="data-request-${document.generated_at.slice(0, 10)}.json"`)
        .header('cache-control', 'no-store')
        .send(JSON.stringify(document, null, 2));
    } catch (error) {
      const errors = invalid(error);
      if (!errors) throw error;
      return sendPage(reply, dataRequestsPage(session, { errors, email }), 422);
    }
  });

  app.post('/account/data-requests/erase', async (request: Body, reply) => {
    const session = sessionOf(request);
    const email = text(request.body, 'email');
    try {
      const erasure = await subjects.erase(session.account.id, email);
      await audit.recordKeyless({ accountId: session.account.id, surface: 'dashboard', actor: session.account.id, operation: 'subjects erase', targetId: null, detail: erasureDetail(erasure) });
      return redirectWith(request, reply, deps, '/account/data-requests', { kind: 'ok', text: `Done: ${erasureDetail(erasure)}.` });
    } catch (error) {
      const errors = invalid(error);
      if (!errors) throw error;
      return sendPage(reply, dataRequestsPage(session, { errors, email }), 422);
    }
  });
}
