// The account page (plan, AI credits, translation language, password) and the health panel.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LANGUAGE } from '../../accounts/service.ts';
import { isEmailAddress } from '../../forms/email-address.ts';
import { readHealth, type Health } from '../health.ts';
import type { ProviderState } from '../../health/providers.ts';
import { text } from '../form-input.ts';
import { html, when, type Html } from '../html.ts';
import { input, notice, page, postForm, sendPage, type Errors } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import { DashboardError, type Session } from '../service.ts';
import { MIN_PASSWORD_LENGTH } from '../passwords.ts';
import { sessionOf } from '../page-context.ts';

const DONE: Record<string, string> = {
  password: 'Password changed. Your other sessions were logged out.', language: 'Language saved.', 'reply-to': 'Reply-to address saved.',
};

async function accountPage(request: FastifyRequest<{ Querystring: { done?: string } }>, deps: DashboardDeps, session: Session, errors: Errors = {}): Promise<Html> {
  const account = (await deps.services.accounts.find(session.account.email)) ?? session.account;
  const credits = await deps.services.accounts.credits(account);
  const done = request.query.done;
  return page({
    title: 'Account',
    session,
    section: 'account',
    body: html`<div class="page-head"><h1>Account</h1><p class="muted">${account.email}</p></div>
${done && DONE[done] ? notice('ok', DONE[done] as string) : ''}
<div class="grid-2">
<section class="panel" aria-labelledby="plan-title">
  <h2 id="plan-title">Plan and AI credits</h2>
  <dl class="facts">
    <div><dt>Plan</dt><dd>${account.plan === 'pro' ? 'Pro' : 'Free'}</dd></div>
    <div><dt>Period</dt><dd>${credits.period}</dd></div>
    <div><dt>Credits used</dt><dd>${credits.used} of ${credits.allowance}</dd></div>
    <div><dt>Remaining</dt><dd>${credits.remaining}</dd></div>
    <div><dt>Metered</dt><dd>${credits.metered ? `Yes (${credits.meteredUsage} metered)` : 'No'}</dd></div>
    <div><dt>Submissions</dt><dd>${account.submissionsTotal}</dd></div>
  </dl>
  <meter min="0" max="${credits.allowance}" value="${credits.used}" aria-label="AI credits used">${credits.used} of ${credits.allowance}</meter>
</section>
<section class="panel" aria-labelledby="language-title">
  <h2 id="language-title">Translation language</h2>
  <p class="muted">Submissions in other languages are translated into this one (ISO 639-1 code, such as en, de, fr).</p>
  ${postForm(session, '/account/language', html`<div class="row align-end">${input({ name: 'language', label: 'Language code', value: account.language, errors, attributes: html`maxlength="2" pattern="[a-z]{2}"` })}<button type="submit" class="button secondary">Save</button></div>`)}
</section>
<section class="panel" aria-labelledby="reply-to-title">
  <h2 id="reply-to-title">Reply-to address</h2>
  <p class="muted">Where submitters' answers to smart replies go. Empty: ${account.email}.</p>
  ${postForm(session, '/account/reply-to', html`<div class="row align-end">${input({ name: 'reply_to_email', label: 'Reply-to email', type: 'email', value: account.replyToEmail, errors, autocomplete: 'email' })}<button type="submit" class="button secondary">Save</button></div>`)}
</section>
</div>
<section class="panel narrow-panel" aria-labelledby="data-requests-title">
  <h2 id="data-requests-title">Data requests</h2>
  <p class="muted">Someone asks what you hold about them, or to have it deleted: <a href="/account/data-requests">find, export or erase by email address</a>.</p>
</section>
<section class="panel narrow-panel" aria-labelledby="password-title">
  <h2 id="password-title">Change password</h2>
  ${postForm(session, '/account/password', html`
    ${input({ name: 'current_password', label: 'Current password', type: 'password', errors, autocomplete: 'current-password', required: true })}
    ${input({ name: 'password', label: 'New password', type: 'password', errors, autocomplete: 'new-password', required: true, hint: `At least ${MIN_PASSWORD_LENGTH} characters.`, attributes: html`minlength="${MIN_PASSWORD_LENGTH}"` })}
    <button type="submit" class="button primary">Change password</button>`)}
</section>`,
  });
}

function healthRow(label: string, value: Html | string, ok: boolean | null): Html {
  const state = ok === null ? '' : ok ? html`<span class="badge ok">OK</span>` : html`<span class="badge warn">Check</span>`;
  return html`<tr><th scope="row">${label}</th><td>${value}</td><td>${state}</td></tr>`;
}

function healthPage(session: Session, h: Health): Html {
  const staleMs = h.oldestDueJob ? Date.now() - Date.parse(h.oldestDueJob) : 0;
  const worker = h.workersSeen === null
    ? h.embeddedWorker ? 'Runs inside this server' : 'Runs as separate processes (intake worker)'
    : `${h.workersSeen} worker process${h.workersSeen === 1 ? '' : 'es'} seen in the last lease period`;
  const workerOk = h.workersSeen === null ? staleMs < 60_000 : h.workersSeen > 0;
  return page({
    title: 'Health',
    session,
    section: 'health',
    body: html`<div class="page-head"><h1>Health</h1><p class="muted">${h.serverWide
      ? 'What this server is doing, for whoever runs it.'
      : 'Your notifications and email. The server\'s queue and workers are shown to its operator.'}</p></div>
<section class="panel"><div class="table-wrap" role="region" aria-label="Health" tabindex="0"><table class="health">
  <caption class="visually-hidden">Server health</caption>
  <tbody>
    ${healthRow('Database', `${h.engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}: ${h.dependencies.database.up ? 'answering' : `not answering (${h.dependencies.database.reason})`}`, h.dependencies.database.up)}
    ${redisRow(h)}
    ${h.serverWide ? html`${healthRow('Worker', worker, workerOk)}
    ${healthRow('Queue depth', `${h.queueDepth} job${h.queueDepth === 1 ? '' : 's'}`, null)}
    ${healthRow('Oldest due job', h.oldestDueJob ? `${when(h.oldestDueJob)} (${Math.round(staleMs / 1000)} s waiting)` : 'None waiting', staleMs < 60_000)}` : ''}
    ${healthRow('Failed deliveries, last 24 h', String(h.failedDeliveriesLastDay), h.failedDeliveriesLastDay === 0)}
    ${healthRow('Email (SMTP)', h.smtpConfigured ? 'Configured' : 'Not configured: email notifications cannot be sent (set INTAKE_SMTP_URL and INTAKE_MAIL_FROM)', h.smtpConfigured)}
    ${scannerRow(h)}
    ${h.providers.map(providerRow)}
  </tbody></table></div></section>`,
  });
}

function redisRow(h: Health): Html {
  const redis = h.dependencies.redis;
  if (!redis) return healthRow('Shared limits', h.engine === 'postgres' ? 'In PostgreSQL (REDIS_URL is not set)' : "In this process's memory (REDIS_URL is not set)", null);
  if (redis.up) return healthRow('Shared limits', 'Redis: answering', true);
  return healthRow('Shared limits', `Redis: not answering since ${when(redis.fallbackSince)}. Rate limits and in-flight caps are counted in each process's memory until it answers.`, false);
}

function scannerRow(h: Health): Html {
  const scanner = h.dependencies.malwareScanner;
  if (!scanner) return healthRow('Malware scanner', 'Not configured: uploaded files are not scanned (set INTAKE_CLAMAV_URL)', null);
  const n = h.scansHeld ?? 0;
  const held = `${n} submission${n === 1 ? '' : 's'} with files held for a scan`;
  if (scanner.up) return healthRow('Malware scanner', `ClamAV: answering; ${held}`, true);
  return healthRow('Malware scanner', `ClamAV: not answering. Submissions with files wait, and their notifications go out once it answers: ${held}.`, false);
}

const PROVIDER_NAMES: Record<string, string> = { model: 'Language model', libretranslate: 'Translation (LibreTranslate)', deepl: 'Translation (DeepL)', smtp: 'Email (SMTP server)' };

function providerRow(p: ProviderState): Html {
  const name = PROVIDER_NAMES[p.provider] ?? p.provider;
  if (p.ok) return healthRow(name, `Answered at ${when(p.lastCallAt)}`, true);
  const times = `${p.failuresInARow} failure${p.failuresInARow === 1 ? '' : 's'} in a row`;
  return healthRow(name, `Failing since ${when(p.failingSince)} (${times}): ${p.lastError ?? ''}`, false);
}

export async function accountPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { dashboard, accounts } = deps.services;

  app.get('/account', async (request: FastifyRequest<{ Querystring: { done?: string } }>, reply) =>
    sendPage(reply, await accountPage(request, deps, sessionOf(request))));

  app.post('/account/password', async (request: FastifyRequest<{ Querystring: { done?: string } }>, reply) => {
    const session = sessionOf(request);
    try {
      await dashboard.changePassword(session, text(request.body, 'current_password', false), text(request.body, 'password', false));
      // Other sessions are logged out: so are the account's OAuth provider sessions, in every browser.
      await deps.services.oauth.endSessionsOf(session.account.id);
      return reply.redirect('/account?done=password', 303);
    } catch (error) {
      if (!(error instanceof DashboardError)) throw error;
      return sendPage(reply, await accountPage(request, deps, session, { [error.field]: error.message }), 422);
    }
  });

  app.post('/account/language', async (request: FastifyRequest<{ Querystring: { done?: string } }>, reply) => {
    const session = sessionOf(request);
    const language = text(request.body, 'language').toLowerCase();
    if (!LANGUAGE.test(language)) {
      return sendPage(reply, await accountPage(request, deps, session, { language: 'Use a two-letter ISO 639-1 code such as en.' }), 422);
    }
    await accounts.setAccountLanguage(session.account.id, language);
    return reply.redirect('/account?done=language', 303);
  });

  app.post('/account/reply-to', async (request: FastifyRequest<{ Querystring: { done?: string } }>, reply) => {
    const session = sessionOf(request);
    const address = text(request.body, 'reply_to_email').toLowerCase();
    if (address !== '' && !isEmailAddress(address)) {
      return sendPage(reply, await accountPage(request, deps, session, { reply_to_email: 'Enter an email address such as team@example.com, or leave it empty.' }), 422);
    }
    await accounts.setReplyTo(session.account.id, address === '' ? null : address);
    return reply.redirect('/account?done=reply-to', 303);
  });

  app.get('/health', async (request, reply) => {
    const session = sessionOf(request);
    const serverWide = await deps.services.setup.isOperator(session.account.id);
    return sendPage(reply, healthPage(session, await readHealth(deps.database, deps.config, deps.services.dependencies, session.account.id, serverWide)));
  });
}
