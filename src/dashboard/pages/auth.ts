// Set-up, sign-up, log in, log out and set-password pages. The POSTs that try a password are
// registered in the login rate-limit zone ('attempts'); the pages that show the forms are not.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, type Html } from '../html.ts';
import { csrfField, input, notice, page, sendPage, type Errors } from '../layout.ts';
import { text } from '../form-input.ts';
import type { DashboardDeps } from '../deps.ts';
import { preToken, SESSION_COOKIE, startSessionCookie } from '../session-cookies.ts';
import { DashboardError } from '../service.ts';
import { MIN_PASSWORD_LENGTH } from '../passwords.ts';
import { baseUrlOf } from '../../http/base-url.ts';
import { PROVIDER_SESSION_COOKIE, PROVIDER_SESSION_COOKIES } from '../../oauth/provider.ts';

const PUBLIC = { config: { public: true } };

interface AuthForm {
  title: string;
  intro: Html | string;
  action: string;
  submit: string;
  withEmail: boolean;
  newPassword: boolean;
  hidden?: Html;
  footer?: Html;
}

function authPage(request: FastifyRequest, reply: FastifyReply, deps: DashboardDeps, form: AuthForm, values: { email?: string }, errors: Errors = {}): Html {
  const general = errors.token ?? errors.form;
  return page({
    title: form.title,
    session: null,
    narrow: true,
    body: html`<div class="card auth">
  <p class="brand big">Intake</p>
  <h1>${form.title}</h1>
  <p class="lead">${form.intro}</p>
  ${general ? notice('error', general) : ''}
  <form method="post" action="${form.action}"${form.newPassword ? '' : html` novalidate`}>
    ${csrfField(null, preToken(request, reply, deps.config))}
    ${form.hidden ?? ''}
    ${form.withEmail ? input({ name: 'email', label: 'Email', type: 'email', value: values.email, errors, required: true, autocomplete: 'username' }) : ''}
    ${input({
      name: 'password',
      label: form.newPassword ? 'New password' : 'Password',
      type: 'password',
      errors,
      required: true,
      autocomplete: form.newPassword ? 'new-password' : 'current-password',
      hint: form.newPassword ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined,
      // Checked by the browser too (the form then validates), so a short one is refused before it is sent.
      attributes: form.newPassword ? html`minlength="${MIN_PASSWORD_LENGTH}"` : undefined,
    })}
    <button type="submit" class="button primary wide">${form.submit}</button>
  </form>
  ${form.footer ?? ''}
</div>`,
  });
}

function setupForm(token: string): AuthForm {
  return {
    title: 'Set up Intake',
    intro: 'Create the owner account of this server. You will use it to log in to the dashboard.',
    action: '/setup',
    submit: 'Create account',
    withEmail: true,
    newPassword: true,
    hidden: html`<input type="hidden" name="token" value="${token}">`,
  };
}

/** What a visitor without a good set-up link sees: only someone at the server's terminal can go on. */
function setupLinkNeeded(request: FastifyRequest, reply: FastifyReply, problem: string | null): Html {
  return page({
    title: 'Set up Intake',
    session: null,
    narrow: true,
    body: html`<div class="card auth">
  <p class="brand big">Intake</p>
  <h1>Set up Intake</h1>
  ${problem ? notice('error', problem) : ''}
  <p class="lead">This server is not set up yet. To protect it, set-up works only through the one-time link that the
  server printed in its terminal when it started.</p>
  <p>Lost it? On the server, run <code>npm run intake -- setup-link</code> for a new one.</p>
</div>`,
  });
}

const LOGIN: AuthForm = { title: 'Log in', intro: 'Welcome back.', action: '/login', submit: 'Log in', withEmail: true, newPassword: false };
const SIGNUP: AuthForm = { title: 'Create an account', intro: 'Collect form submissions in minutes.', action: '/signup', submit: 'Sign up', withEmail: true, newPassword: true };

function setPasswordForm(token: string): AuthForm {
  return {
    title: 'Choose a password',
    intro: 'Set the password of your Intake account. This link works once.',
    action: '/set-password',
    submit: 'Set password and log in',
    withEmail: false,
    newPassword: true,
    hidden: html`<input type="hidden" name="token" value="${token}">`,
  };
}

/**
 * Where a log-in may send the owner back to: only an OAuth consent page (an app asked to connect
 * while nobody was logged in). Anything else is ignored, so the parameter can never redirect away.
 */
export function safeNext(value: unknown): string | null {
  return typeof value === 'string' && /^\/oauth\/consent\/[A-Za-z0-9_-]{10,64}$/.test(value) ? value : null;
}

function loginForm(deps: DashboardDeps, next: string | null = null): AuthForm {
  const form = next ? { ...LOGIN, intro: 'Log in to decide whether an app may connect to your Intake.', hidden: html`<input type="hidden" name="next" value="${next}">` } : LOGIN;
  return deps.config.signup === 'open' ? { ...form, footer: html`<p class="muted center">New here? <a href="/signup">Create an account</a></p>` } : form;
}

async function attempt(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: DashboardDeps,
  form: AuthForm,
  run: () => Promise<{ token: string }>,
): Promise<FastifyReply> {
  try {
    const { token } = await run();
    startSessionCookie(request, reply, deps.config, token);
    return reply.redirect((form.action === '/login' && safeNext((request.body as Record<string, unknown> | undefined)?.next)) || '/overview', 303);
  } catch (error) {
    if (!(error instanceof DashboardError)) throw error;
    const status = form.action === '/login' ? 401 : 422;
    return sendPage(reply, authPage(request, reply, deps, form, { email: text(request.body, 'email') }, { [error.field]: error.message }), status);
  }
}

export async function authPages(app: FastifyInstance, deps: DashboardDeps, part: 'attempts' | 'pages'): Promise<void> {
  const { dashboard } = deps.services;
  const password = (request: FastifyRequest) => text(request.body, 'password', false);

  if (part === 'attempts') {
    app.post('/setup', PUBLIC, (request, reply) => {
      const token = text(request.body, 'token');
      return attempt(request, reply, deps, setupForm(token), () => dashboard.setUp(token, text(request.body, 'email'), password(request)));
    });
    app.post('/login', PUBLIC, (request, reply) =>
      attempt(request, reply, deps, loginForm(deps, safeNext((request.body as Record<string, unknown> | undefined)?.next)), () =>
        dashboard.logIn(text(request.body, 'email'), password(request))));
    app.post('/signup', PUBLIC, async (request, reply) => {
      if (deps.config.signup !== 'open') return reply.redirect('/login', 303);
      return attempt(request, reply, deps, SIGNUP, () => dashboard.signUp(text(request.body, 'email'), password(request)));
    });
    app.post('/set-password', PUBLIC, (request, reply) => {
      const token = text(request.body, 'token');
      return attempt(request, reply, deps, setPasswordForm(token), async () => {
        const started = await dashboard.usePasswordLink(token, password(request));
        // The link logged every other session out: the provider's sessions of the account end too.
        await deps.services.oauth.endSessionsOf(started.session.account.id);
        return started;
      });
    });
    return;
  }

  app.get<{ Querystring: { token?: string } }>('/setup', PUBLIC, async (request, reply) => {
    if (!(await dashboard.needsSetup())) return reply.redirect('/login', 303);
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    if (!token) return sendPage(reply, setupLinkNeeded(request, reply, null));
    if (!(await deps.services.setup.tokenIsValid(token))) {
      return sendPage(reply, setupLinkNeeded(request, reply, 'This set-up link has expired or was used.'), 403);
    }
    return sendPage(reply, authPage(request, reply, deps, setupForm(token), {}));
  });
  app.get<{ Querystring: { next?: string } }>('/login', PUBLIC, async (request, reply) => {
    const next = safeNext(request.query.next);
    if (request.session) return reply.redirect(next ?? '/overview', 303);
    if (await dashboard.needsSetup()) return reply.redirect('/setup', 303);
    return sendPage(reply, authPage(request, reply, deps, loginForm(deps, next), {}));
  });
  app.get('/signup', PUBLIC, async (request, reply) => {
    if (deps.config.signup !== 'open') return reply.redirect('/login', 303);
    return sendPage(reply, authPage(request, reply, deps, SIGNUP, {}));
  });
  app.get<{ Querystring: { token?: string } }>('/set-password', PUBLIC, async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const errors: Errors = (await dashboard.linkIsValid(token)) ? {} : { token: 'This link has expired or was used. Ask the owner of this server for a new one.' };
    return sendPage(reply, authPage(request, reply, deps, setPasswordForm(token), {}, errors), errors.token ? 410 : 200);
  });
  app.post('/logout', async (request, reply) => {
    if (request.session) await dashboard.logOut(request.session);
    // The OAuth provider's session in this browser ends too: the next person at this browser must
    // log in and answer the consent page before any app gets a code (oauth/service.ts).
    // (Only with its cookie: a server nobody signed in to with OAuth never loads the provider.)
    if (request.cookies[PROVIDER_SESSION_COOKIE]) await deps.services.oauth.endBrowserSession(baseUrlOf(request, deps.config.publicUrl), request.raw, reply.raw);
    for (const name of [SESSION_COOKIE, ...PROVIDER_SESSION_COOKIES]) reply.clearCookie(name, { path: '/' });
    return reply.redirect('/login', 303);
  });
}
