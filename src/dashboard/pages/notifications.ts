// A form's notifications: destinations of every type (add, test, enable or disable, regenerate a
// webhook secret shown once, delete) and each destination's delivery log with retry.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Destination } from '../../delivery/destinations/store.ts';
import type { DestinationInput } from '../../delivery/destinations/service.ts';
import type { LoggedDelivery } from '../../delivery/deliveries/service.ts';
import { CreateDestinationBody } from '../../delivery/schemas.ts';
import type { FormRecord } from '../../forms/store.ts';
import { AppError } from '../../http/errors.ts';
import { flag, optional, text } from '../form-input.ts';
import { html, when, type Html } from '../html.ts';
import { actionButton, checkbox, firstErrors, input, notice, postForm, select, sendPage, type Errors } from '../layout.ts';
import { flashNotice, redirectWith, takeFlash } from '../flash.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { bodyChecker } from '../validate.ts';
import { formPage, sessionOf } from '../page-context.ts';

type Params = { id: string; did: string; delivery: string };
type NotificationRequest = FastifyRequest<{ Params: Params; Querystring: { page?: string; done?: string } }>;

const TYPES: Array<[string, string]> = [
  ['webhook', 'Webhook'], ['slack', 'Slack'], ['discord', 'Discord'], ['teams', 'Microsoft Teams'],
  ['google_chat', 'Google Chat'], ['telegram', 'Telegram'], ['email', 'Email'],
];
const LOG_PAGE_SIZE = 20;
const DONE: Record<string, string> = {
  added: 'Destination added.', enabled: 'Destination enabled.', disabled: 'Destination disabled.',
  deleted: 'Destination deleted.', retried: 'Delivery queued again.',
};
const checkCreate = bodyChecker<DestinationInput>(CreateDestinationBody);
/** Email destinations are accepted without SMTP (it may be set later), but the owner is told at once. */
const NO_MAIL_SERVER = 'No mail server is configured on this server, so email notifications cannot be sent until its operator sets INTAKE_SMTP_URL and INTAKE_MAIL_FROM';

/** An email destination's recipients_role: every active member with the role or above, looked up at each send. */
const MEMBER_ROLES: Array<[string, string]> = [['', 'Only the addresses above'], ['editor', 'every editor, admin and owner'], ['admin', 'every admin and owner'], ['owner', 'every owner'], ['viewer', 'every member']];

function target(d: Destination): string {
  const t = d.target as Record<string, unknown>;
  if (typeof t.url === 'string') return t.url;
  if (Array.isArray(t.recipients)) return [...t.recipients, ...(typeof t.recipients_role === 'string' ? [MEMBER_ROLES.find(([role]) => role === t.recipients_role)?.[1] ?? ''] : [])].join(', ');
  return `chat ${String(t.chat_id)}`;
}

function destinationInput(body: unknown): DestinationInput {
  const type = text(body, 'type');
  const input: Record<string, unknown> = { type, deliver_spam: flag(body, 'deliver_spam') };
  const name = optional(body, 'name');
  if (name) input.name = name;
  if (type === 'telegram') Object.assign(input, { bot_token: text(body, 'bot_token'), chat_id: text(body, 'chat_id') });
  else if (type === 'email') {
    const recipients = text(body, 'recipients').split(/[\s,;]+/).filter(Boolean);
    if (recipients.length > 0) input.recipients = recipients;
    const role = text(body, 'recipients_role');
    if (role) input.recipients_role = role;
  }
  else input.url = text(body, 'url');
  return checkCreate(input);
}

function destinationCard(session: Session, form: FormRecord, d: Destination): Html {
  const base = `/forms/${form.id}/notifications/${d.id}`;
  const fromForm = d.source === 'form';
  return html`<li class="destination">
  <div class="row-between">
    <div><h3>${d.name} <span class="badge">${d.type}</span> ${d.enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge off">disabled</span>`}</h3>
    <p class="muted wrap">${target(d)}</p></div>
  </div>
  ${d.disabledReason ? notice('warn', html`Disabled ${when(d.disabledAt)}: ${d.disabledReason}`) : ''}
  <p class="small muted">Last delivered ${when(d.lastDeliveredAt)}${d.failureCount ? html` · ${d.failureCount} ${d.failureCount === 1 ? 'failure' : 'failures'} in a row` : ''}${d.lastError ? html` · last error: ${d.lastError}` : ''}</p>
  <div class="actions">
    ${actionButton(session, `${base}/test`, 'Send test')}
    <a class="button secondary" href="${base}">Delivery log</a>
    ${fromForm ? html`<a class="button secondary" href="/forms/${form.id}/edit">Change in form settings</a>` : html`
      ${actionButton(session, `${base}/${d.enabled ? 'disable' : 'enable'}`, d.enabled ? 'Disable' : 'Enable')}
      ${d.type === 'webhook' ? actionButton(session, `${base}/regenerate-secret`, 'Regenerate secret', 'secondary', 'The current secret stops working at once. Continue?') : ''}
      ${actionButton(session, `${base}/delete`, 'Delete', 'danger', 'Delete this destination and its log?')}`}
  </div>
</li>`;
}

function addForm(session: Session, form: FormRecord, errors: Errors, body: unknown, mailConfigured: boolean): Html {
  return html`<section class="panel" aria-labelledby="add-title">
  <h2 id="add-title">Add a destination</h2>
  ${postForm(session, `/forms/${form.id}/notifications`, html`
    <div class="row">
      ${select({ name: 'type', label: 'Type', value: text(body, 'type') || 'webhook', options: TYPES, errors })}
      ${input({ name: 'name', label: 'Name (optional)', value: text(body, 'name'), errors })}
    </div>
    <div data-types="webhook slack discord teams google_chat">${input({ name: 'url', label: 'URL', type: 'url', value: text(body, 'url'), errors, hint: 'Webhook, Slack, Discord, Teams and Google Chat: the HTTPS URL to post to.' })}</div>
    <div class="row" data-types="telegram">
      ${input({ name: 'bot_token', label: 'Telegram bot token', value: text(body, 'bot_token'), errors, autocomplete: 'off' })}
      ${input({ name: 'chat_id', label: 'Telegram chat id', value: text(body, 'chat_id'), errors })}
    </div>
    <div data-types="email">${input({ name: 'recipients', label: 'Email recipients', value: text(body, 'recipients'), errors, hint: 'Email: addresses separated by commas.' })}
      ${select({ name: 'recipients_role', label: 'Also notify members', value: text(body, 'recipients_role'), options: MEMBER_ROLES, errors, hint: 'Looked up at each send: members who join later are notified, members removed are not.' })}
      ${mailConfigured ? '' : notice('warn', html`${NO_MAIL_SERVER} (see <a href="/health">Health</a>).`)}</div>
    ${checkbox({ name: 'deliver_spam', label: 'Deliver submissions flagged as spam too', checked: flag(body, 'deliver_spam') })}
    <button type="submit" class="button primary">Add destination</button>`, html`novalidate`)}
</section>`;
}

function notificationsPage(session: Session, form: FormRecord, list: Destination[], top: Html, mailConfigured: boolean, errors: Errors = {}, body: unknown = {}): Html {
  return formPage(session, form, 'notifications', `${form.name} notifications`, html`
${top}
<section class="panel" aria-labelledby="destinations-title">
  <h2 id="destinations-title">Destinations</h2>
  ${list.length ? html`<ul class="plain destinations">${list.map((d) => destinationCard(session, form, d))}</ul>` : html`<p class="muted">No destinations yet: add one below to be told of each new submission.</p>`}
</section>
${addForm(session, form, errors, body, mailConfigured)}`);
}

function logEntry(session: Session, form: FormRecord, d: Destination, entry: LoggedDelivery): Html {
  const retry = entry.status === 'failed' && entry.submissionId
    ? actionButton(session, `/forms/${form.id}/notifications/${d.id}/deliveries/${entry.id}/retry`, 'Retry')
    : '';
  return html`<li class="log-entry">
  <div class="row-between"><p><span class="badge delivery-${entry.status}">${entry.status}</span> ${entry.submissionId ? html`<a href="/forms/${form.id}/submissions/${entry.submissionId}">submission</a>` : 'test event'} <span class="muted">${when(entry.createdAt)}</span></p>${retry}</div>
  <ol class="attempts">${entry.log.map(
    (a) => html`<li>Attempt ${a.attempt} · ${when(a.attemptedAt)} · ${a.statusCode ? `HTTP ${a.statusCode}` : 'no response'} · ${a.durationMs} ms${a.error ? html` · <span class="error-text">${a.error}</span>` : ''}</li>`,
  )}</ol>
</li>`;
}

export async function notificationPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { forms, destinations, deliveries } = deps.services;
  const mailConfigured = deps.config.delivery.smtp !== null;
  const context = async (request: NotificationRequest) => {
    const session = sessionOf(request);
    const form = await forms.get(session.account.id, request.params.id);
    return { session, form, accountId: session.account.id };
  };
  const listPage = async (request: NotificationRequest, top: Html, errors: Errors = {}, body: unknown = {}) => {
    const { session, form, accountId } = await context(request);
    return notificationsPage(session, form, await destinations.list(accountId, form.id), top, mailConfigured, errors, body);
  };
  const back = (request: NotificationRequest, done: string) => `/forms/${request.params.id}/notifications?done=${done}`;

  app.get('/forms/:id/notifications', async (request: NotificationRequest, reply) => {
    const done = request.query.done;
    const flash = await takeFlash(request, deps);
    return sendPage(reply, await listPage(request, flash ? flashNotice(flash) : done && DONE[done] ? notice('ok', DONE[done] as string) : html``));
  });

  app.post('/forms/:id/notifications', async (request: NotificationRequest, reply) => {
    const { accountId, form } = await context(request);
    try {
      const input = destinationInput(request.body);
      const { secret } = await destinations.create(accountId, form.id, input);
      const unsendable = input.type === 'email' && !mailConfigured;
      return redirectWith(request, reply, deps, `/forms/${form.id}/notifications`, {
        kind: unsendable ? 'warn' : 'ok',
        text: unsendable ? `Destination added. ${NO_MAIL_SERVER}.` : (DONE.added as string),
        ...(secret && { secret: { label: 'Signing secret of the new webhook.', value: secret } }),
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'validation_error') throw error;
      return sendPage(reply, await listPage(request, notice('error', 'Check the destination.'), firstErrors(error.details), request.body), 422);
    }
  });

  app.post('/forms/:id/notifications/:did/test', async (request: NotificationRequest, reply) => {
    const { accountId, form } = await context(request);
    const result = await deliveries.test(accountId, form.id, request.params.did);
    return redirectWith(request, reply, deps, `/forms/${form.id}/notifications`, result.delivered
      ? { kind: 'ok', text: 'Test event delivered.' }
      : { kind: 'error', text: `Test event not delivered: ${result.delivery.lastError ?? `HTTP ${result.delivery.lastStatusCode ?? '—'}`}` });
  });

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    app.post(`/forms/:id/notifications/:did/${action}`, async (request: NotificationRequest, reply) => {
      const { accountId, form } = await context(request);
      await destinations.update(accountId, form.id, request.params.did, { enabled });
      return reply.redirect(back(request, enabled ? 'enabled' : 'disabled'), 303);
    });
  }

  app.post('/forms/:id/notifications/:did/regenerate-secret', async (request: NotificationRequest, reply) => {
    const { accountId, form } = await context(request);
    const { secret } = await destinations.regenerateSecret(accountId, form.id, request.params.did);
    return redirectWith(request, reply, deps, `/forms/${form.id}/notifications`, { kind: 'ok', text: 'New signing secret.', secret: { label: 'New signing secret.', value: secret } });
  });

  app.post('/forms/:id/notifications/:did/delete', async (request: NotificationRequest, reply) => {
    const { accountId, form } = await context(request);
    await destinations.delete(accountId, form.id, request.params.did);
    return reply.redirect(back(request, 'deleted'), 303);
  });

  app.get('/forms/:id/notifications/:did', async (request: NotificationRequest, reply) => {
    const { session, form, accountId } = await context(request);
    const destination = await destinations.get(accountId, form.id, request.params.did);
    const pageNumber = /^\d{1,6}$/.test(request.query.page ?? '') ? Math.max(1, Number(request.query.page)) : 1;
    const { deliveries: log, total } = await deliveries.list(accountId, form.id, destination.id, pageNumber, LOG_PAGE_SIZE);
    const pages = Math.max(1, Math.ceil(total / LOG_PAGE_SIZE));
    const done = request.query.done;
    const at = (p: number) => `/forms/${form.id}/notifications/${destination.id}?page=${p}`;
    return sendPage(reply, formPage(session, form, 'notifications', `${destination.name} log`, html`
${done && DONE[done] ? notice('ok', DONE[done] as string) : ''}
<section class="panel" aria-labelledby="log-title">
  <h2 id="log-title">Delivery log: ${destination.name}</h2>
  <p class="muted wrap">${target(destination)}</p>
  ${log.length ? html`<ul class="plain log">${log.map((entry) => logEntry(session, form, destination, entry))}</ul>` : html`<p class="muted">Nothing sent yet. Send a test from the Notifications page.</p>`}
  <nav class="pager" aria-label="Pages">${pageNumber > 1 ? html`<a href="${at(pageNumber - 1)}">← Newer</a>` : ''}<span>Page ${pageNumber} of ${pages}</span>${pageNumber < pages ? html`<a href="${at(pageNumber + 1)}">Older →</a>` : ''}</nav>
</section>`));
  });

  app.post('/forms/:id/notifications/:did/deliveries/:delivery/retry', async (request: NotificationRequest, reply) => {
    const { accountId, form } = await context(request);
    await deliveries.retry(accountId, form.id, request.params.did, request.params.delivery);
    return reply.redirect(`/forms/${form.id}/notifications/${request.params.did}?done=retried`, 303);
  });
}
