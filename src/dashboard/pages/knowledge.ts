// Knowledge bases: list, create, edit, delete (naming the forms whose smart replies it switches
// off). Their text is hostile like any other: escaped wherever it shows.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreateKnowledgeBaseBody, UpdateKnowledgeBaseBody } from '../../knowledge/schemas.ts';
import type { KnowledgeBaseDetail, KnowledgeInput } from '../../knowledge/service.ts';
import { AppError } from '../../http/errors.ts';
import { text } from '../form-input.ts';
import { html, when, type Html } from '../html.ts';
import { actionButton, csrfField, firstErrors, input, notice, page, sendPage, type Errors } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { bodyChecker } from '../validate.ts';
import { sessionOf } from '../page-context.ts';

type KnowledgeRequest = FastifyRequest<{ Params: { id: string }; Querystring: { done?: string } }>;
type Values = { name: string; content: string; signature: string };

const checkCreate = bodyChecker<KnowledgeInput & { name: string; content: string }>(CreateKnowledgeBaseBody);
const checkUpdate = bodyChecker<KnowledgeInput>(UpdateKnowledgeBaseBody);
const DONE: Record<string, string> = { deleted: 'Knowledge base deleted.' };

function inputOf(body: unknown): Record<string, unknown> {
  const signature = text(body, 'signature', false).trim();
  return { name: text(body, 'name'), content: text(body, 'content', false), signature: signature === '' ? null : signature };
}

function editor(session: Session, action: string, submit: string, values: Values, errors: Errors): Html {
  return html`<form method="post" action="${action}" class="panel" novalidate>
  ${csrfField(session)}
  ${input({ name: 'name', label: 'Name', value: values.name, errors, required: true, attributes: html`maxlength="100"` })}
  <div class="field${errors.content ? ' invalid' : ''}">
    <label for="f-content">Content</label>
    <textarea id="f-content" name="content" rows="16" aria-describedby="f-content-hint"${errors.content ? html` aria-invalid="true"` : ''}>${values.content}</textarea>
    <p class="hint" id="f-content-hint">Plain text, Markdown with headings, or question-and-answer pairs (lines starting <code>Q:</code> and <code>A:</code>). Replies quote it; nothing else is made up.</p>
    ${errors.content ? html`<p class="error">${errors.content}</p>` : ''}
  </div>
  <div class="field${errors.signature ? ' invalid' : ''}">
    <label for="f-signature">Signature</label>
    <textarea id="f-signature" name="signature" rows="2" maxlength="1000">${values.signature}</textarea>
    <p class="hint">Closes every reply made from this knowledge base.</p>
    ${errors.signature ? html`<p class="error">${errors.signature}</p>` : ''}
  </div>
  <div class="actions"><button type="submit" class="button primary">${submit}</button><a class="button secondary" href="/knowledge">Cancel</a></div>
</form>`;
}

function editorPage(session: Session, title: string, action: string, submit: string, values: Values, errors: Errors, top: Html = html``, after: Html = html``): Html {
  return page({
    title,
    session,
    section: 'knowledge',
    body: html`<div class="page-head"><p class="crumbs"><a href="/knowledge">Knowledge bases</a> /</p><h1>${title}</h1></div>
${Object.keys(errors).length ? notice('error', 'Some fields need your attention.') : top}
${editor(session, action, submit, values, errors)}
${after}`,
  });
}

const valuesOf = (kb: KnowledgeBaseDetail): Values => ({ name: kb.name, content: kb.content, signature: kb.signature ?? '' });
const valuesFrom = (body: unknown): Values => ({ name: text(body, 'name'), content: text(body, 'content', false), signature: text(body, 'signature', false) });

function invalid(error: unknown): Errors | null {
  return error instanceof AppError && error.code === 'validation_error' ? firstErrors(error.details) : null;
}

export async function knowledgePages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { knowledge, forms } = deps.services;

  app.get('/knowledge', async (request: KnowledgeRequest, reply) => {
    const session = sessionOf(request);
    const list = await knowledge.list(session.account.id);
    const done = request.query.done;
    return sendPage(reply, page({
      title: 'Knowledge bases',
      session,
      section: 'knowledge',
      body: html`<div class="page-head row-between"><h1>Knowledge bases</h1><a class="button primary" href="/knowledge/new">New knowledge base</a></div>
${done && DONE[done] ? notice('ok', DONE[done] as string) : ''}
<p class="muted">Smart replies answer submissions from a knowledge base: link one in a form's settings.</p>
${list.length
  ? html`<div class="table-wrap" role="region" aria-label="Knowledge bases" tabindex="0"><table>
  <thead><tr><th scope="col">Name</th><th scope="col" class="num">Passages</th><th scope="col" class="num">Forms</th><th scope="col">Updated</th></tr></thead>
  <tbody>${list.map((kb) => html`<tr><td><a class="strong" href="/knowledge/${kb.id}">${kb.name}</a></td><td class="num">${kb.passageCount}</td><td class="num">${kb.linkedForms}</td><td>${when(kb.updatedAt)}</td></tr>`)}</tbody>
</table></div>`
  : html`<div class="empty panel"><h2>No knowledge bases yet</h2><p>Paste your FAQ or product notes; replies quote them.</p></div>`}`,
    }));
  });

  app.get('/knowledge/new', async (request, reply) =>
    sendPage(reply, editorPage(sessionOf(request), 'New knowledge base', '/knowledge/new', 'Create', { name: '', content: '', signature: '' }, {})));

  app.post('/knowledge/new', async (request, reply) => {
    const session = sessionOf(request);
    try {
      const kb = await knowledge.create(session.account.id, checkCreate(inputOf(request.body)));
      return reply.redirect(`/knowledge/${kb.id}?done=created`, 303);
    } catch (error) {
      const errors = invalid(error);
      if (!errors) throw error;
      return sendPage(reply, editorPage(session, 'New knowledge base', '/knowledge/new', 'Create', valuesFrom(request.body), errors), 422);
    }
  });

  app.get('/knowledge/:id', async (request: KnowledgeRequest, reply) => {
    const session = sessionOf(request);
    const kb = await knowledge.get(session.account.id, request.params.id);
    const top = request.query.done === 'created' ? notice('ok', 'Knowledge base created.') : request.query.done === 'saved' ? notice('ok', 'Changes saved.') : html``;
    const facts = html`${top}<p class="muted">${kb.passageCount} passages · linked to ${kb.linkedForms} form${kb.linkedForms === 1 ? '' : 's'} · version ${kb.version}</p>`;
    const remove = html`<section class="panel danger-zone" aria-labelledby="delete-title"><h2 id="delete-title">Delete</h2><a class="button danger" href="/knowledge/${kb.id}/delete">Delete knowledge base…</a></section>`;
    return sendPage(reply, editorPage(session, kb.name, `/knowledge/${kb.id}`, 'Save changes', valuesOf(kb), {}, facts, remove));
  });

  app.post('/knowledge/:id', async (request: KnowledgeRequest, reply) => {
    const session = sessionOf(request);
    const kb = await knowledge.get(session.account.id, request.params.id);
    try {
      await knowledge.update(session.account.id, kb.id, checkUpdate(inputOf(request.body)));
      return reply.redirect(`/knowledge/${kb.id}?done=saved`, 303);
    } catch (error) {
      const errors = invalid(error);
      if (!errors) throw error;
      return sendPage(reply, editorPage(session, kb.name, `/knowledge/${kb.id}`, 'Save changes', valuesFrom(request.body), errors), 422);
    }
  });

  app.get('/knowledge/:id/delete', async (request: KnowledgeRequest, reply) => {
    const session = sessionOf(request);
    const kb = await knowledge.get(session.account.id, request.params.id);
    const linked = (await forms.list(session.account.id)).filter((form) => form.settings.knowledge_base_id === kb.id);
    return sendPage(reply, page({
      title: `Delete ${kb.name}`,
      session,
      section: 'knowledge',
      body: html`<div class="panel narrow-panel">
  <h1>Delete “${kb.name}”?</h1>
  ${linked.length
    ? html`<p>Smart replies will be switched off on ${linked.length === 1 ? 'this form' : 'these forms'}:</p><ul>${linked.map((form) => html`<li><a href="/forms/${form.id}">${form.name}</a></li>`)}</ul>`
    : html`<p>No form uses it.</p>`}
  <div class="actions">${actionButton(session, `/knowledge/${kb.id}/delete`, 'Delete knowledge base', 'danger')}<a class="button secondary" href="/knowledge/${kb.id}">Cancel</a></div>
</div>`,
    }));
  });

  app.post('/knowledge/:id/delete', async (request: KnowledgeRequest, reply) => {
    await knowledge.delete(sessionOf(request).account.id, request.params.id);
    return reply.redirect('/knowledge?done=deleted', 303);
  });
}
