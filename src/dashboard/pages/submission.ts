// One submission, led by its message: who sent it and what they want, reply (the smart reply's
// draft, else a mailto: to the sender), done / spam / unread, previous and next within the inbox
// view it was opened from; then every field (original or translated), the spam verdict when the
// form checks spam, processing, metadata, deliveries and delete. Opening it marks it read.
import { can } from '../../workspaces/permissions.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FormRecord } from '../../forms/store.ts';
import type { Submission } from '../../submissions/store.ts';
import type { Destination } from '../../delivery/destinations/store.ts';
import type { LoggedDelivery } from '../../delivery/deliveries/service.ts';
import type { FileRecord } from '../../files/store.ts';
import { fileLabel } from '../../files/link-lists.ts';
import { sendDownload } from '../../files/routes.ts';
import { flag, text } from '../form-input.ts';
import { html, safeHref, showValue, when, type Html } from '../html.ts';
import { notice, postForm, sendPage } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import { assetUrl } from '../assets.ts';
import type { Session } from '../service.ts';
import { formPage, sessionOf } from '../page-context.ts';
import { statusBadge } from './status-badge.ts';
import { REPLY_DONE, replyPanel, replyRoutes } from './reply.ts';
import { inboxUrl, selectionOf, submissionUrl, TABS, viewOf, viewParams, type View } from './inbox-view.ts';
import { languageName, messageOf, relativeTime, senderEmail, senderOf, statedSubjectOf, subjectOf } from './submission-summary.ts';

type SubmissionRequest = FastifyRequest<{ Params: { id: string; sid: string; fid?: string }; Querystring: { view?: string; done?: string; tab?: string; q?: string; status?: string } }>;

const DONE: Record<string, string> = {
  spam: 'Marked as spam.',
  'not-spam': 'Marked as not spam.',
  'marked-done': 'Marked done.',
  'not-done': 'Moved back to the inbox.',
  ...REPLY_DONE,
};

/** The fields without the message, which the page shows above them already. */
function withoutKey(data: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([name]) => name !== key));
}

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

const processed = (s: Submission) => s.processing_status !== 'pending' && s.processing_status !== 'processing';

/** A button that posts one field to one of this submission's actions, keeping the inbox view. */
function markButton(session: Session, action: string, view: View, field: string, value: string, label: string, id?: string): Html {
  return postForm(session, action, html`${viewFields(view)}<input type="hidden" name="${field}" value="${value}"><button class="button secondary small" type="submit"${id ? html` id="${id}"` : ''}>${label}</button>`, html`class="inline"`);
}

function viewFields(view: View): Html {
  return html`<input type="hidden" name="tab" value="${view.tab}"><input type="hidden" name="q" value="${view.text}"><input type="hidden" name="status" value="${view.status ?? ''}">`;
}

/**
 * Shown only when the form checks spam, or the owner marked this one: otherwise there is no verdict
 * to show. The button that corrects it is in the action bar.
 */
function spamPanel(form: FormRecord, s: Submission): Html {
  if (!form.settings.spam_protection_enabled && !s.spam_flag && s.spam_corrected_at === null) return html``;
  const confidence = s.spam_confidence === null ? '—' : `${Math.round(s.spam_confidence * 100)}%`;
  return html`<section class="panel" aria-labelledby="spam-title">
  <h2 id="spam-title">Spam verdict</h2>
  <dl class="facts">
    <div><dt>Verdict</dt><dd id="spam-verdict">${s.spam_flag ? 'Spam' : 'Not spam'}</dd></div>
    <div><dt>Confidence</dt><dd>${confidence}</dd></div>
    <div><dt>Corrected</dt><dd>${s.spam_corrected_at ? when(s.spam_corrected_at) : 'No'}</dd></div>
  </dl>
  ${s.spam_reason ? html`<p class="reason">${s.spam_reason}</p>` : ''}
  ${processed(s) ? '' : html`<p class="muted">The verdict can be corrected once processing has finished.</p>`}
</section>`;
}

/** Which member (their email then) marked it, edited and sent its reply: omitted when nobody did (the pipeline's work, or from before teams). */
function whoPanel(s: Submission): Html {
  const rows: [string, string, string | null][] = [
    ['who-read', 'Read by', s.read ? s.read_by : null],
    ['who-done', s.done ? 'Marked done by' : 'Marked not done by', s.done_by],
    ['who-spam', s.spam_flag ? 'Marked spam by' : 'Marked not spam by', s.spam_marked_by],
    ['who-reply-edited', 'Reply edited by', s.reply_edited_by],
    ['who-reply-sent', 'Reply sent by', s.reply_sent_by],
  ];
  const shown = rows.filter(([, , member]) => member !== null);
  if (shown.length === 0) return html``;
  return html`<section class="panel" aria-labelledby="who-title">
  <h2 id="who-title">Who</h2>
  <dl class="facts stacked">${shown.map(([id, label, member]) => html`<div><dt>${label}</dt><dd id="${id}">${member}</dd></div>`)}</dl>
</section>`;
}

/** Each delivery row names its destination (by its name, linked to its log), else its type. */
function deliveriesPanel(form: FormRecord, deliveries: LoggedDelivery[], destinations: Map<string, Destination>): Html {
  return html`<section class="panel" aria-labelledby="deliveries-title">
  <h2 id="deliveries-title">Notifications sent</h2>
  ${deliveries.length === 0
    ? html`<p class="muted">None yet. <a href="/forms/${form.id}/notifications">Set up notifications</a>.</p>`
    : html`<ul class="plain">${deliveries.map(
        (d) => html`<li>${destinationName(form, destinations.get(d.destinationId))} <span class="badge delivery-${d.status}">${d.status}</span> ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${
          d.lastStatusCode ? html` · HTTP ${d.lastStatusCode}` : ''}${d.lastError ? html` · ${d.lastError}` : ''} <span class="muted">${when(d.createdAt)}</span></li>`,
      )}</ul>`}
</section>`;
}

function destinationName(form: FormRecord, d: Destination | undefined): Html {
  if (!d) return html`<span class="muted">a deleted destination</span>`;
  return html`<a href="/forms/${form.id}/notifications/${d.id}">${d.name}</a> <span class="muted small">${d.type}</span> ·`;
}

/** The uploaded files, each downloaded through the session (never shown inline: an upload cannot run as the dashboard). */
function filesPanel(form: FormRecord, s: Submission, files: FileRecord[]): Html {
  if (files.length === 0) return html``;
  const base = `/forms/${form.id}/submissions/${s.id}/files`;
  return html`<section class="panel" aria-labelledby="files-title">
  <h2 id="files-title">Files</h2>
  <ul class="plain" id="submission-files">${files.map((file) => html`<li><strong>${fileLabel(file)}</strong> <span class="muted">${file.field} · ${file.content_type}</span>
    ${file.quarantine ? html`<span class="badge spam">Quarantined: ${file.quarantine}</span>` : html`<a class="button secondary small" href="${base}/${file.id}" download>Download</a>`}</li>`)}</ul>
</section>`;
}

interface Around {
  newer: string | null;
  older: string | null;
}

/** Reply: the smart reply's draft when there is one to send, else an email to the sender. */
function replyAction(s: Submission, subject: string): Html {
  if (s.reply_content !== null && s.reply_status !== 'sent') return html`<a class="button primary small" href="#reply-title" id="reply-action">Reply</a>`;
  const email = senderEmail(s.data);
  if (!email) return html``;
  const href = safeHref(`mailto:${encodeURIComponent(email).replace(/%40/g, '@')}?subject=${encodeURIComponent(`Re: ${subject || 'your message'}`)}`);
  return html`<a class="button primary small" href="${href}" id="reply-action">Reply by email</a>`;
}

function actionBar(session: Session, form: FormRecord, s: Submission, view: View, around: Around, subject: string): Html {
  const base = `/forms/${form.id}/submissions/${s.id}`;
  return html`<div class="message-actions" role="group" aria-label="Act on this submission">
  ${replyAction(s, subject)}
  ${can(session, 'triage') ? html`${markButton(session, `${base}/done`, view, 'done', s.done ? 'false' : 'true', s.done ? 'Not done' : 'Mark done', 'done-action')}
  ${processed(s) ? markButton(session, `${base}/spam`, view, 'spam', s.spam_flag ? 'false' : 'true', s.spam_flag ? 'Not spam' : 'Mark as spam') : ''}
  ${markButton(session, `${base}/read`, view, 'read', 'false', 'Mark unread')}` : ''}
  <nav class="prev-next" aria-label="Submissions in this view">
    <a href="${inboxUrl(form, view)}">Back to ${TABS.find(([t]) => t === view.tab)![1]}</a>
    ${around.newer ? html`<a href="${submissionUrl(form, around.newer, view)}" rel="prev" id="newer">← Newer</a>` : ''}
    ${around.older ? html`<a href="${submissionUrl(form, around.older, view)}" rel="next" id="older">Older →</a>` : ''}
  </nav>
</div>`;
}

function submissionPage(
  session: Session, form: FormRecord, s: Submission, deliveries: LoggedDelivery[], destinations: Map<string, Destination>, files: FileRecord[], query: SubmissionRequest['query'], around: Around,
): Html {
  const view = viewOf(query);
  const base = `/forms/${form.id}/submissions/${s.id}`;
  const translated = query.view !== 'original' && s.translated_data !== null;
  const shown = translated ? { ...s.data, ...(s.translated_data as Record<string, unknown>) } : s.data;
  const toggle = s.translated_data
    ? html`<a class="button secondary small" id="translation-toggle" href="${base}?${viewParams(view, { view: translated ? 'original' : 'translated' }).toString()}">${translated ? 'Show original' : 'Show translation'}</a>`
    : '';
  const sender = senderOf(s.data) ?? 'Anonymous';
  const email = senderEmail(s.data);
  const subject = subjectOf(shown);
  const message = messageOf(shown);
  const done = query.done;
  return formPage(session, form, 'inbox', 'Submission', html`
<link rel="stylesheet" href="${assetUrl('inbox.css')}">
${done && DONE[done] ? notice('ok', DONE[done] as string) : ''}
<article class="message" aria-labelledby="message-subject">
  <header class="message-head">
    <p class="message-from"><strong id="message-sender">${sender}</strong>${email && email !== sender ? html` <span class="muted">&lt;${email}&gt;</span>` : ''}</p>
    <h2 id="message-subject">${statedSubjectOf(shown) || 'No subject'}</h2>
    <p class="muted small"><time datetime="${s.created_at}" title="${when(s.created_at)}">${relativeTime(s.created_at, new Date())}</time>${
      s.original_language ? html` · written in <span id="language">${languageName(s.original_language)}</span>${translated ? ' · machine translation' : ''}` : ''}${
      s.done ? html` · <span class="badge">Done</span>` : ''}${s.spam_flag ? html` · <span class="badge spam">Spam</span>` : ''}</p>
  </header>
  ${actionBar(session, form, s, view, around, subject)}
  ${message ? html`<div class="prose message-text" id="message-text">${message.text}</div>` : ''}
</article>
<div class="grid-2">
  <div>
    <section class="panel" aria-labelledby="data-title">
      <div class="row-between"><h2 id="data-title">${message ? 'Other fields' : 'All fields'}${translated ? ', translated' : ''}</h2>${toggle}</div>
      <div id="submission-data">${dataList(message ? withoutKey(shown, message.key) : shown)}</div>
    </section>
    ${filesPanel(form, s, files)}
    ${can(session, 'replies') ? replyPanel(session, form, s) : ''}
    ${deliveriesPanel(form, deliveries, destinations)}
  </div>
  <div>
    ${spamPanel(form, s)}
    ${whoPanel(s)}
    <section class="panel" aria-labelledby="processing-title">
      <h2 id="processing-title">Processing</h2>
      <dl class="facts stacked">
        <div><dt>Status</dt><dd>${statusBadge(s)}</dd></div>
        <div><dt>Reason</dt><dd>${s.processing_reason ?? '—'}</dd></div>
        <div><dt>Processed</dt><dd>${when(s.processed_at)}</dd></div>
      </dl>
    </section>
    <section class="panel" aria-labelledby="meta-title"><h2 id="meta-title">Metadata</h2>${metadataList(s)}</section>
    ${can(session, 'triage') ? html`<section class="panel danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      ${postForm(session, `${base}/delete`, html`${viewFields(view)}<div class="field check"><input type="checkbox" id="confirm-delete" name="confirm" value="true" required><label for="confirm-delete">Yes, delete this submission</label></div><button type="submit" class="button danger">Delete submission</button>`)}
    </section>` : ''}
  </div>
</div>`);
}

export async function submissionPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { forms, submissions, deliveries, destinations, triage, audit, files } = deps.services;
  const record = (session: Session, operation: string, id: string) =>
    audit.recordKeyless({ accountId: session.account.id, surface: 'dashboard', actor: session.account.id, operation, targetId: id });
  const back = (request: SubmissionRequest, done: string | null) =>
    submissionUrl({ id: request.params.id }, request.params.sid, viewOf(request.body), { done });

  app.get('/forms/:id/submissions/:sid', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    const form = await forms.get(session.account.id, request.params.id);
    let submission = await submissions.get(session.account.id, form.id, request.params.sid);
    // Opening it is reading it.
    if (!submission.read) submission = await triage.markRead(session.account.id, form.id, submission.id, true, session.person.email);
    const sent = await deliveries.forSubmission(submission.id);
    const named = new Map((sent.length ? await destinations.list(session.account.id, form.id) : []).map((d) => [d.id, d]));
    const around = await triage.neighbours(session.account.id, form.id, submission.id, selectionOf(viewOf(request.query)));
    const uploaded = (await files.ofSubmissions([submission.id])).get(submission.id) ?? [];
    return sendPage(reply, submissionPage(session, form, submission, sent, named, uploaded, request.query, around));
  });

  // The owner's download, by session: the same checks (another account's file, or another
  // submission's, is 404) and the same attachment headers as the API's route.
  app.get('/forms/:id/submissions/:sid/files/:fid', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    return sendDownload(reply, await files.openOwned(session.account.id, request.params.id, request.params.sid, request.params.fid ?? ''));
  });

  app.post('/forms/:id/submissions/:sid/spam', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    const spam = flag(request.body, 'spam');
    await submissions.correctSpam({ accountId: session.account.id, keyId: `dashboard:${session.account.id}`, member: session.person.email }, request.params.id, request.params.sid, spam);
    await record(session, spam ? 'mark spam' : 'mark not spam', request.params.sid);
    return reply.redirect(back(request, spam ? 'spam' : 'not-spam'), 303);
  });

  app.post('/forms/:id/submissions/:sid/done', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    const done = flag(request.body, 'done');
    await triage.markDone(session.account.id, request.params.id, request.params.sid, done, session.person.email);
    await record(session, done ? 'mark done' : 'mark not done', request.params.sid);
    return reply.redirect(back(request, done ? 'marked-done' : 'not-done'), 303);
  });

  // Back to the inbox: the submission page would mark it read again.
  app.post('/forms/:id/submissions/:sid/read', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    await triage.markRead(session.account.id, request.params.id, request.params.sid, flag(request.body, 'read'), session.person.email);
    await record(session, 'mark unread', request.params.sid);
    return reply.redirect(inboxUrl({ id: request.params.id }, viewOf(request.body), { notice: 'unread', n: 1 }), 303);
  });

  app.post('/forms/:id/submissions/:sid/delete', async (request: SubmissionRequest, reply) => {
    const session = sessionOf(request);
    if (text(request.body, 'confirm') !== 'true') return reply.redirect(back(request, null), 303);
    await submissions.delete(session.account.id, request.params.id, request.params.sid);
    await record(session, 'delete submission', request.params.sid);
    return reply.redirect(inboxUrl({ id: request.params.id }, viewOf(request.body), { notice: 'delete', n: 1 }), 303);
  });

  await replyRoutes(app, deps);

  // Notifications sent by earlier versions linked to /dashboard/…; those links keep working.
  app.get('/dashboard/forms/:id/submissions/:sid', async (request: SubmissionRequest, reply) =>
    reply.redirect(`/forms/${encodeURIComponent(request.params.id)}/submissions/${encodeURIComponent(request.params.sid)}`, 303));
}
