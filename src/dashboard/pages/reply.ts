// The smart reply of a submission: its draft edited in place, sent once, or made again from the
// knowledge base. The replies service holds every rule; these are its buttons.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FormRecord } from '../../forms/store.ts';
import type { QuotedSentence, ReplyConfidence } from '../../replies/evidence.ts';
import type { Submission } from '../../submissions/store.ts';
import { SubmissionPatchBody } from '../../submissions/schemas.ts';
import { text } from '../form-input.ts';
import { html, when, type Html } from '../html.ts';
import { actionButton, postForm } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { bodyChecker } from '../validate.ts';
import { sessionOf } from '../page-context.ts';

type ReplyRequest = FastifyRequest<{ Params: { id: string; sid: string } }>;
const checkEdit = bodyChecker<{ reply_subject?: string; reply_content?: string }>(SubmissionPatchBody);

export const REPLY_DONE: Record<string, string> = {
  'reply-saved': 'Draft saved.',
  'reply-sent': 'Reply sent.',
  'reply-regenerated': 'A new draft was made from the knowledge base.',
  'reply-alternative': 'The draft now quotes the other passage.',
};

const LEVEL_TEXT: Record<ReplyConfidence['level'], string> = {
  high: 'high: sure enough to be sent unread in auto mode',
  medium: 'medium: check it before sending',
  low: 'low: the knowledge base may not answer this',
};
const where = (q: QuotedSentence) => `passage ${q.passage + 1}${q.heading ? ` (${q.heading})` : ''}`;

/** How sure the draft is, what it quotes and, when not sure, the next-best passage's sentence with a button to use it. */
function confidencePanel(session: Session, base: string, s: Submission): Html {
  const c = s.reply_confidence;
  if (!c) return html``;
  const alternative = c.alternative && s.reply_status !== 'sent'
    ? html`<p>Next-best, ${where(c.alternative)}: <q class="reply-alternative">${c.alternative.sentence}</q></p>
      ${actionButton(session, `${base}/alternative`, 'Use this sentence instead', 'secondary')}`
    : '';
  return html`<div class="reply-confidence" id="reply-confidence" data-level="${c.level}">
    <p><span class="strong">Confidence</span> ${LEVEL_TEXT[c.level]} <span class="muted">(score ${c.score.toFixed(2)})</span></p>
    <ul>${c.quoted.map((q) => html`<li>Quotes ${where(q)}: <q>${q.sentence}</q></li>`)}</ul>
    ${alternative}
  </div>`;
}

export function replyPanel(session: Session, form: FormRecord, s: Submission): Html {
  if (!form.settings.smart_reply_enabled && s.reply_content === null) return html``;
  const base = `/forms/${form.id}/submissions/${s.id}/reply`;
  const sent = s.reply_status === 'sent';
  const body = sent
    ? html`${s.reply_subject ? html`<p class="strong">${s.reply_subject}</p>` : ''}<div class="prose">${s.reply_content ?? ''}</div>`
    : html`${postForm(session, base, html`
      <div class="field"><label for="f-reply_subject">Subject</label><input id="f-reply_subject" name="reply_subject" value="${s.reply_subject ?? ''}" maxlength="200"></div>
      <div class="field"><label for="f-reply_content">Reply</label><textarea id="f-reply_content" name="reply_content" rows="8" maxlength="20000">${s.reply_content ?? ''}</textarea></div>
      <button type="submit" class="button secondary">Save draft</button>`)}
      <div class="actions">
        ${s.reply_content ? actionButton(session, `${base}/send`, 'Send reply', 'primary', 'Send this reply to the submitter now?') : ''}
        ${actionButton(session, `${base}/regenerate`, 'Regenerate', 'secondary', 'Replace the draft with a new one from the knowledge base?')}
      </div>`;
  return html`<section class="panel" aria-labelledby="reply-title">
  <h2 id="reply-title">Reply</h2>
  <p><span class="badge" id="reply-status">${s.reply_status}</span>${s.replied_at ? html` <span class="muted">sent ${when(s.replied_at)}</span>` : ''}</p>
  ${s.reply_reason ? html`<p class="muted">${s.reply_reason}</p>` : ''}
  ${confidencePanel(session, base, s)}
  ${body}
</section>`;
}

export async function replyRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { replies } = deps.services;
  const back = (request: ReplyRequest, done: string) => `/forms/${request.params.id}/submissions/${request.params.sid}?done=${done}`;

  app.post('/forms/:id/submissions/:sid/reply', async (request: ReplyRequest, reply) => {
    const subject = text(request.body, 'reply_subject');
    const edit = checkEdit({ ...(subject && { reply_subject: subject }), reply_content: text(request.body, 'reply_content', false) });
    await replies.edit(sessionOf(request).account.id, request.params.id, request.params.sid, edit, sessionOf(request).person.email);
    return reply.redirect(back(request, 'reply-saved'), 303);
  });

  app.post('/forms/:id/submissions/:sid/reply/send', async (request: ReplyRequest, reply) => {
    await replies.send(sessionOf(request).account.id, request.params.id, request.params.sid, sessionOf(request).person.email);
    return reply.redirect(back(request, 'reply-sent'), 303);
  });

  app.post('/forms/:id/submissions/:sid/reply/alternative', async (request: ReplyRequest, reply) => {
    await replies.useAlternative(sessionOf(request).account.id, request.params.id, request.params.sid, sessionOf(request).person.email);
    return reply.redirect(back(request, 'reply-alternative'), 303);
  });

  app.post('/forms/:id/submissions/:sid/reply/regenerate', async (request: ReplyRequest, reply) => {
    await replies.regenerate(sessionOf(request).account.id, request.params.id, request.params.sid);
    return reply.redirect(back(request, 'reply-regenerated'), 303);
  });
}
