// One submission: its data (original or translated), metadata, processing status, spam verdict
// with the owner's correction, reply draft, deliveries, and delete.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FormRecord } from '../../forms/store.ts';
import type { Submission } from '../../submissions/store.ts';
import type { LoggedDelivery } from '../../delivery/deliveries/service.ts';
import { flag, text } from '../form-input.ts';
import { html, safeHref, showValue, when, type Html } from '../html.ts';
import { notice, postForm, sendPage } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { formPage, sessionOf } from '../page-context.ts';
import { statusBadge } from './status-badge.ts';
import { REPLY_DONE, replyPanel, replyRoutes } from './reply.ts';

type SubmissionRequest = FastifyRequest<{ Params: { id: string; sid: string }; Querystring: { view?: string; done?: string } }>;

const DONE: Record<string, string> = {
  spam: 'Marked as spam.',
  'not-spam': 'Marked as not spam.',
  ...REPLY_DONE,
};

function dataList(data: Record<string, unknown>): Html {
  const entries = Object.entries(data);
  if (entries.length === 0) return html`<p class="muted">No data.</p>`;
  return html`<dl class="data">${entries.map(([key, value]) => html`<div><dt>${key}</dt><dd>${showValue(value)}</dd></div>`)}</dl>`;
}

function metadataList(s: Submission): Html {
  const m = s.metadata;
  const link = (url: string | null) => (url ? html`<a href="${safeHref(url)}" rel="noopener noreferrer nofollow">${url}</a>` : '—');
  const utm = Object.entries(m.utm ?? {});
  return html`<dl class="facts stacked">
  <div><dt>IP address</dt><dd>${m.ip}</dd></div>
  <div><dt>User agent</dt><dd>${m.user_agent ?? '—'}</dd></div>
  <div><dt>Referer</dt><dd>${link(m.referer)}</dd></div>
  <div><dt>Origin</dt><dd>${m.origin ?? '—'}</dd></div>
  ${utm.length ? html`<div><dt>UTM</dt><dd>${utm.map(([k, v]) => `${k}=${v}`).join(', ')}</dd></div>` : ''}
</dl>`;
}

function spamPanel(session: Session, form: FormRecord, s: Submission): Html {
  const base = `/forms/${form.id}/submissions/${s.id}`;
  const confidence = s.spam_confidence === null ? '—' : `${Math.round(s.spam_confidence * 100)}%`;
  const processed = s.processing_status !== 'pending' && s.processing_status !== 'processing';
  const button = s.spam_flag
    ? postForm(session, `${base}/spam`, html`<input type="hidden" name="spam" value="false"><button class="button secondary" type="submit">Not spam</button>`, html`class="inline"`)
    : postForm(session, `${base}/spam`, html`<input type="hidden" name="spam" value="true"><button class="button secondary" type="submit">Mark as spam</button>`, html`class="inline"`);
  return html`<section class="panel" aria-labelledby="spam-title">
  <h2 id="spam-title">Spam verdict</h2>
  <dl class="facts">
    <div><dt>Verdict</dt><dd id="spam-verdict">${s.spam_flag ? 'Spam' : 'Not spam'}</dd></div>
    <div><dt>Confidence</dt><dd>${confidence}</dd></div>
    <div><dt>Corrected</dt><dd>${s.spam_corrected_at ? when(s.spam_corrected_at) : 'No'}</dd></div>
  </dl>
  ${s.spam_reason ? html`<p class="reason">${s.spam_reason}</p>` : ''}
  ${processed ? button : html`<p class="muted">The verdict can be corrected once processing has finished.</p>`}
</section>`;
}

function deliveriesPanel(form: FormRecord, deliveries: LoggedDelivery[]): Html {
  return html`<section class="panel" aria-labelledby="deliveries-title">
  <h2 id="deliveries-title">Notifications sent</h2>
  ${deliveries.length === 0
    ? html`<p class="muted">None yet. <a href="/forms/${form.id}/notifications">Set up notifications</a>.</p>`
    : html`<ul class="plain">${deliveries.map(
        (d) => html`<li><span class="badge delivery-${d.status}">${d.status}</span> ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${
          d.lastStatusCode ? html` · HTTP ${d.lastStatusCode}` : ''}${d.lastError ? html` · ${d.lastError}` : ''} <span class="muted">${when(d.createdAt)}</span></li>`,
      )}</ul>`}
</section>`;
}

function submissionPage(session: Session, form: FormRecord, s: Submission, deliveries: LoggedDelivery[], view: string, done: string | undefined): Html {
  const base = `/forms/${form.id}/submissions/${s.id}`;
  const translated = view !== 'original' && s.translated_data !== null;
  const toggle = s.translated_data
    ? html`<a class="button secondary small" id="translation-toggle" href="${base}?view=${translated ? 'original' : 'translated'}">${translated ? 'Show original' : 'Show translation'}</a>`
    : '';
  return formPage(session, form, 'inbox', 'Submission', html`
${done && DONE[done] ? notice('ok', DONE[done] as string) : ''}
<div class="row-between"><h2 class="h1-sub">Submission <span class="muted small">${when(s.created_at)}</span></h2><div>${statusBadge(s)}</div></div>
<div class="grid-2">
  <div>
    <section class="panel" aria-labelledby="data-title">
      <div class="row-between"><h2 id="data-title">${translated ? 'Translated data' : 'Data'}</h2>${toggle}</div>
      ${s.original_language ? html`<p class="muted small">Written in <span id="language">${s.original_language}</span>${translated ? ' · machine translation' : ''}</p>` : ''}
      <div id="submission-data">${dataList(translated ? { ...s.data, ...(s.translated_data as Record<string, unknown>) } : s.data)}</div>
    </section>
    ${replyPanel(session, form, s)}
    ${deliveriesPanel(form, deliveries)}
  </div>
  <div>
    ${spamPanel(session, form, s)}
    <section class="panel" aria-labelledby="processing-title">
      <h2 id="processing-title">Processing</h2>
      <dl class="facts stacked">
        <div><dt>Status</dt><dd>${s.processing_status}</dd></div>
        <div><dt>Reason</dt><dd>${s.processing_reason ?? '—'}</dd></div>
        <div><dt>Processed</dt><dd>${when(s.processed_at)}</dd></div>
      </dl>
    </section>
    <section class="panel" aria-labelledby="meta-title"><h2 id="meta-title">Metadata</h2>${metadataList(s)}</section>
    <section class="panel danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      ${postForm(session, `${base}/delete`, html`<div class="field check"><input type="checkbox" id="confirm-delete" name="confirm" value="true" required><label for="confirm-delete">Yes, delete this submission</label></div><button type="submit" class="button danger">Delete submission</button>`)}
    </section>
  </div>
</div>`);
}

export async function submissionPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { forms, submissions, deliveries } = deps.services;

  app.get('/forms/:id/submissions/:sid', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    const form = await forms.get(session.account.id, request.params.id);
    const submission = await submissions.get(session.account.id, form.id, request.params.sid);
    const sent = await deliveries.forSubmission(submission.id);
    return sendPage(reply, submissionPage(session, form, submission, sent, request.query.view ?? 'translated', request.query.done));
  });

  app.post('/forms/:id/submissions/:sid/spam', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    const spam = flag(request.body, 'spam');
    await submissions.correctSpam({ accountId: session.account.id, keyId: `dashboard:${session.account.id}` }, request.params.id, request.params.sid, spam);
    return reply.redirect(`/forms/${request.params.id}/submissions/${request.params.sid}?done=${spam ? 'spam' : 'not-spam'}`, 303);
  });

  app.post('/forms/:id/submissions/:sid/delete', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    if (text(request.body, 'confirm') !== 'true') return reply.redirect(`/forms/${request.params.id}/submissions/${request.params.sid}`, 303);
    await submissions.delete(session.account.id, request.params.id, request.params.sid);
    return reply.redirect(`/forms/${request.params.id}/inbox`, 303);
  });

  await replyRoutes(app, deps);

  // Notifications sent by earlier versions linked to /dashboard/…; those links keep working.
  app.get('/dashboard/forms/:id/submissions/:sid', async (request: SubmissionRequest, reply) =>
    reply.redirect(`/forms/${encodeURIComponent(request.params.id)}/submissions/${encodeURIComponent(request.params.sid)}`, 303));
}
