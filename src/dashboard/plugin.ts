// The owner's dashboard, served at `/` by the API's process. Everything here lives in one
// encapsulated Fastify plugin: the cookie and form-body parsers, the session hook, CSRF checks and
// the security headers exist only for these routes, so /api/*, /mcp and the submission endpoints
// never set or read the session cookie.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { AppError } from '../http/errors.ts';
import { hashSecret } from '../accounts/secrets.ts';
import { bodyKeyedLimit, byClientIp, rateLimitZone } from '../http/rate-limit.ts';
import type { Services } from '../services.ts';
import { html } from './html.ts';
import { page, sendPage } from './layout.ts';
import { SESSION_DAYS, type Session } from './service.ts';
import { authPages } from './pages/auth.ts';
import { formPages } from './pages/forms.ts';
import { inboxPages } from './pages/inbox.ts';
import { notificationPages } from './pages/notifications.ts';
import { integrationPages } from './pages/integrations.ts';
import { consentPages } from './pages/consent.ts';
import { accountPages } from './pages/account.ts';
import { knowledgePages } from './pages/knowledge.ts';
import { knowledgeBodyLimit } from '../knowledge/routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (log in, set-up, assets). */
    public?: boolean;
  }
}

export const SESSION_COOKIE = 'intake_session';
/** Double-submit token for the forms shown before there is a session (log in, set-up). */
export const PRE_COOKIE = 'intake_pre';

export interface DashboardDeps {
  config: Config;
  database: Database;
  services: Services;
}

const CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
].join('; ');

const ASSETS: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'builder.js': 'text/javascript; charset=utf-8',
};

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** True when the request comes from a page of this site (or says nothing about its origin). */
function sameOrigin(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    return false;
  }
}

/** Log-ins count per account too: by a hash of the email tried, so the counters hold no address. */
function loginAccountKey(request: FastifyRequest): string | null {
  if (request.method !== 'POST' || request.routeOptions.url !== '/login') return null;
  const email = (request.body as Record<string, unknown> | undefined)?.email;
  return typeof email === 'string' ? hashSecret(email.trim().toLowerCase().slice(0, 320)) : null;
}

export function isSecure(request: FastifyRequest, config: Config): boolean {
  return request.protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
}

export function startSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request, config), maxAge: SESSION_DAYS * 86_400,
  });
}

/** The token for forms shown before log-in, set as a cookie the first time such a form is shown. */
export function preToken(request: FastifyRequest, reply: FastifyReply, config: Config): string {
  const existing = request.cookies[PRE_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{20,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  reply.setCookie(PRE_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request, config) });
  return token;
}

function csrfValid(request: FastifyRequest): boolean {
  const sent = (request.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof sent !== 'string' || !sameOrigin(request)) return false;
  if (request.session) return sameText(sent, request.session.csrfToken);
  const pre = request.cookies[PRE_COOKIE];
  return typeof pre === 'string' && sameText(sent, pre);
}

function errorPage(request: FastifyRequest, title: string, message: string, details?: Record<string, string[]>) {
  const problems = Object.entries(details ?? {});
  return page({
    title,
    // Null outside the plugin (the not-found page), where no session is read.
    session: request.session ?? null,
    narrow: !request.session,
    body: html`<div class="panel narrow-panel"><h1>${title}</h1><p>${message}</p>${
      problems.length ? html`<ul>${problems.map(([field, messages]) => html`<li><strong>${field}</strong> ${messages.join('; ')}</li>`)}</ul>` : ''
    }<p><a href="/forms">Back to your forms</a></p></div>`,
  });
}

function setPageHeaders(request: FastifyRequest, reply: FastifyReply): void {
  // The consent page sets its own, which lets its form lead back to the app.
  if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', CSP);
  reply.header('X-Frame-Options', 'DENY');
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'same-origin');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
  if (!request.url.startsWith('/assets/')) reply.header('Cache-Control', 'no-store');
}

const API_PREFIXES = ['/api/', '/mcp', '/.well-known/', '/openapi.json', '/docs'];

/** A browser following a wrong link to the dashboard (not an API client) is answered with a page. */
export function wantsDashboardPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!(request.headers.accept ?? '').includes('text/html')) return false;
  return !API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
}

/** The dashboard's 404 page, for a URL no route serves (the app's not-found handler, outside this plugin). */
export function sendNotFoundPage(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  setPageHeaders(request, reply);
  return sendPage(reply, errorPage(request, 'Not found', 'There is no page at this address.'), 404);
}

export async function dashboardRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { config, services } = deps;
  const assets = new Map(Object.keys(ASSETS).map((name) => [name, fs.readFileSync(new URL(`./assets/${name}`, import.meta.url))]));

  await app.register(cookie);
  // A knowledge base's text is the largest thing a page posts.
  await app.register(formbody, { bodyLimit: knowledgeBodyLimit(config) });
  app.decorateRequest('session', null);

  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    request.session = token ? await services.dashboard.session(token) : null;
    if (request.routeOptions.config.public || request.session) return;
    const target = (await services.dashboard.needsSetup()) ? '/setup' : '/login';
    return reply.redirect(target, 303);
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || csrfValid(request)) return;
    return sendPage(reply, errorPage(request, 'Request refused', 'This form has expired or came from another site. Go back, reload the page and try again.'), 403);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    setPageHeaders(request, reply);
    return payload;
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error instanceof AppError ? error.status : (error.statusCode ?? 500);
    if (status === 429) return sendPage(reply, errorPage(request, 'Too many attempts', error.message), 429);
    if (status === 404) return sendPage(reply, errorPage(request, 'Not found', 'There is nothing here, or it belongs to another account.'), 404);
    if (status < 500) {
      const details = error instanceof AppError ? error.details : undefined;
      return sendPage(reply, errorPage(request, 'That did not work', error.message, details), status);
    }
    request.log.error({ err: error }, 'dashboard request failed');
    return sendPage(reply, errorPage(request, 'Something went wrong', 'Please try again in a moment.'), 500);
  });

  app.get<{ Params: { name: string } }>('/assets/:name', { config: { public: true } }, async (request, reply) => {
    const body = assets.get(request.params.name);
    if (!body) throw new AppError('not_found', 404, 'Not found');
    return reply.type(ASSETS[request.params.name] as string).header('Cache-Control', 'public, max-age=300').send(body);
  });

  app.get('/', { config: { public: true } }, async (request, reply) => {
    if (request.session) return reply.redirect('/forms', 303);
    return reply.redirect((await services.dashboard.needsSetup()) ? '/setup' : '/login', 303);
  });

  // Attempts to log in (and set-up, sign-up, set-password) share one budget per client address, and
  // log-ins one per account besides, so that guesses spread over many addresses meet a limit too.
  await app.register(async (zone) => {
    await rateLimitZone(zone, { name: 'login', perMinute: config.rateLimits.loginPerMinute, key: byClientIp });
    bodyKeyedLimit(zone, { name: 'account', perWindow: config.rateLimits.loginPerAccountPerHour, windowMs: 3_600_000, key: loginAccountKey });
    await authPages(zone, deps, 'attempts');
  });
  await authPages(app, deps, 'pages');
  await formPages(app, deps);
  await inboxPages(app, deps);
  await notificationPages(app, deps);
  await knowledgePages(app, deps);
  await integrationPages(app, deps);
  await consentPages(app, deps);
  await accountPages(app, deps);
}
