// The OAuth consent step: an MCP client (registered by itself) asks to act for the owner. The owner
// logs in if need be, sees the app's name, where it sends them back and what it asks for (read, or
// full: read and change), and allows or denies. Allowing makes a grant the app's tokens hang on;
// Integrations lists it and revokes it at once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { baseUrlOf } from '../../http/base-url.ts';
import { AppError } from '../../http/errors.ts';
import { CONSENT_PATH } from '../../oauth/provider.ts';
import type { ConsentRequest } from '../../oauth/service.ts';
import { text } from '../form-input.ts';
import { html } from '../html.ts';
import { page, postForm, select, sendPage } from '../layout.ts';
import type { DashboardDeps } from '../deps.ts';
import type { Session } from '../service.ts';
import { safeNext } from './auth.ts';

type Params = { Params: { uid: string } };

/** The provider keeps the request in an interaction that this cookie-bound id names; a stale one is an error page. */
function interactionGone(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'SessionNotFound' || name === 'InvalidRequest' || name === 'InvalidClient';
}

function consentPage(session: Session, asked: ConsentRequest) {
  const scopeField = asked.scope === 'full' && asked.narrowable
    ? select({
      name: 'scope', label: 'Access', value: 'full',
      options: [['full', 'Full: read and change your forms, submissions and settings'], ['read', 'Read only: it can list and read, never change']],
      hint: 'You can give less than the app asked for.',
    })
    : asked.scope === 'full'
      ? html`<input type="hidden" name="scope" value="full"><p>It asks for <strong>full</strong> access: it can read and change your forms, submissions and settings.</p>`
      : html`<input type="hidden" name="scope" value="read"><p>It asks for <strong>read-only</strong> access: it can list and read, never change anything.</p>`;
  return page({
    title: 'Connect an app',
    session,
    narrow: true,
    body: html`<div class="card auth">
  <p class="brand big">Intake</p>
  <h1>Allow <span class="strong">${asked.clientName}</span> to use your Intake?</h1>
  <p class="lead">It will act for <strong>${session.account.email}</strong> through the MCP server, and sends you back to <code>${asked.redirectHost}</code>.</p>
  <p class="muted">Only allow apps you started connecting yourself. You can revoke it at any time on the Integrations page.</p>
  ${postForm(session, `${CONSENT_PATH}/${asked.uid}`, html`${scopeField}
    <div class="row">
      <button type="submit" name="decision" value="allow" class="button primary">Allow</button>
      <button type="submit" name="decision" value="deny" class="button secondary">Deny</button>
    </div>`)}
</div>`,
  });
}

export async function consentPages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { oauth } = deps.services;
  const origin = (request: FastifyRequest) => baseUrlOf(request, deps.config.publicUrl);
  const loginFirst = (request: FastifyRequest<Params>, reply: FastifyReply) => {
    const next = safeNext(`${CONSENT_PATH}/${request.params.uid}`);
    return reply.redirect(next ? `/login?next=${encodeURIComponent(next)}` : '/login', 303);
  };
  const asked = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await oauth.consentRequest(origin(request), request.raw, reply.raw);
    } catch (error) {
      if (interactionGone(error)) throw new AppError('invalid_parameters', 400, 'This sign-in request has expired or was already answered. Start connecting again from the app.');
      throw error;
    }
  };

  app.get<Params>(`${CONSENT_PATH}/:uid`, { config: { public: true } }, async (request, reply) => {
    if (!request.session) return loginFirst(request, reply);
    const consent = await asked(request, reply);
    // The answer's redirects end at the app: the form may lead there, and nowhere else.
    reply.header('Content-Security-Policy', `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self' ${new URL(consent.redirectUri).origin}; frame-ancestors 'none'; base-uri 'none'`);
    return sendPage(reply, consentPage(request.session, consent));
  });

  app.post<Params>(`${CONSENT_PATH}/:uid`, { config: { public: true } }, async (request, reply) => {
    if (!request.session) return loginFirst(request, reply);
    await asked(request, reply);
    const allow = text(request.body, 'decision') === 'allow';
    const scope = text(request.body, 'scope') === 'read' ? 'read' : 'full';
    const to = await oauth.answerConsent(origin(request), request.raw, reply.raw, request.session.account.id, { allow, scope }, request.session.person.id);
    return reply.redirect(to, 303);
  });
}
