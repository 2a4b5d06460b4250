// The owner's dashboard, served at `/` by the API's process. Everything here lives in one
// encapsulated Fastify plugin: the cookie and form-body parsers, the session hook, CSRF checks and
// the security headers exist only for these routes, so /api/*, /mcp and the submission endpoints
// never set or read the session cookie.
import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, outageError } from '../http/errors.ts';
import { logOutage } from '../http/error-replies.ts';
import { hashSecret } from '../accounts/secrets.ts';
import { bodyKeyedLimit, byClientIp, rateLimitZone } from '../http/rate-limit.ts';
import { sendPage } from './layout.ts';
import { sendAsset } from './assets.ts';
import type { Session } from './service.ts';
import type { DashboardDeps } from './deps.ts';
import { errorPage, setPageHeaders } from './error-pages.ts';
import { PRE_COOKIE, SESSION_COOKIE } from './session-cookies.ts';
import { authPages } from './pages/auth.ts';
import { formPages } from './pages/forms.ts';
import { inboxPages } from './pages/inbox.ts';
import { submissionPages } from './pages/submission.ts';
import { notificationPages } from './pages/notifications.ts';
import { integrationPages } from './pages/integrations.ts';
import { consentPages } from './pages/consent.ts';
import { accountPages } from './pages/account.ts';
import { dataRequestPages } from './pages/data-requests.ts';
import { knowledgePages } from './pages/knowledge.ts';
import { livePages } from './pages/live.ts';
import { overviewPages } from './pages/overview.ts';
import { auditDashboardWrites, auditPages } from './pages/audit.ts';
import { teamPages } from './pages/team.ts';
import { knowledgeBodyLimit } from '../knowledge/routes.ts';
import { MINIMUM_ROLE, allows, dashboardAction } from '../workspaces/permissions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (log in, set-up, assets). */
    public?: boolean;
  }
}

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

function csrfValid(request: FastifyRequest): boolean {
  const sent = (request.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof sent !== 'string' || !sameOrigin(request)) return false;
  if (request.session) return sameText(sent, request.session.csrfToken);
  const pre = request.cookies[PRE_COOKIE];
  return typeof pre === 'string' && sameText(sent, pre);
}

export async function dashboardRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { config, services } = deps;

  // Pages for people, not API operations: kept out of /openapi.json.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(cookie);
  // Pages compressed on the way out (assets come compressed already, assets.ts). Live streams
  // write to the socket themselves and are never buffered by it.
  // Request bodies are never decompressed: a browser's form posts are plain, and a compressed body
  // (a small upload that inflates to gigabytes) is refused like any other unknown encoding.
  await app.register(compress, { globalCompression: true, globalDecompression: false, threshold: 1024, encodings: ['br', 'gzip'] });
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
  // The member's role (src/workspaces/permissions.ts): after CSRF, so a refused post says why.
  app.addHook('preHandler', async (request, reply) => {
    if (!request.session || request.routeOptions.config.public) return;
    const action = dashboardAction(request.method, request.routeOptions.url);
    if (action && allows(request.session.role, action)) return;
    const needed = action ? `${MINIMUM_ROLE[action]} or above` : 'a role this page does not list';
    return sendPage(reply, errorPage(request, 'Not allowed', `Your role in this workspace is ${request.session.role}; this needs ${needed}. Ask an owner of the workspace.`), 403);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    setPageHeaders(request, reply);
    return payload;
  });
  auditDashboardWrites(app, services.audit);

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error instanceof AppError ? error.status : (error.statusCode ?? 500);
    if (status === 429) return sendPage(reply, errorPage(request, 'Too many attempts', error.message), 429);
    if (status === 404) return sendPage(reply, errorPage(request, 'Not found', 'There is nothing here, or it belongs to another account.'), 404);
    if (status < 500) {
      const details = error instanceof AppError ? error.details : undefined;
      return sendPage(reply, errorPage(request, 'That did not work', error.message, details), status);
    }
    const outage = error instanceof AppError ? null : outageError(error);
    if (outage) {
      logOutage(request, error);
      reply.header('retry-after', String(outage.extra.retry_after));
      return sendPage(reply, errorPage(request, 'Temporarily unavailable', 'The database cannot be reached right now. Please try again in a moment.'), 503);
    }
    request.log.error({ err: error }, 'dashboard request failed');
    return sendPage(reply, errorPage(request, 'Something went wrong', 'Please try again in a moment.'), 500);
  });

  app.get<{ Params: { name: string } }>('/assets/:name', { config: { public: true } }, async (request, reply) => {
    const sent = sendAsset(request, reply, request.params.name);
    if (!sent) throw new AppError('not_found', 404, 'Not found');
    return sent;
  });

  app.get('/', { config: { public: true } }, async (request, reply) => {
    if (request.session) return reply.redirect('/overview', 303);
    return reply.redirect((await services.dashboard.needsSetup()) ? '/setup' : '/login', 303);
  });

  // Attempts to log in (and set-up, sign-up, set-password) share one budget per client address, and
  // log-ins one per account besides, so that guesses spread over many addresses meet a limit too.
  await app.register(async (zone) => {
    await rateLimitZone(zone, { name: 'login', perMinute: config.rateLimits.loginPerMinute, key: byClientIp });
    bodyKeyedLimit(zone, { name: 'account', perWindow: config.rateLimits.loginPerAccountPerHour, windowMs: 3_600_000, key: loginAccountKey });
    await authPages(zone, deps, 'attempts');
    await teamPages(zone, deps, 'attempts');
  });
  await authPages(app, deps, 'pages');
  await overviewPages(app, deps);
  await formPages(app, deps);
  await inboxPages(app, deps);
  await submissionPages(app, deps);
  await notificationPages(app, deps);
  await knowledgePages(app, deps);
  await integrationPages(app, deps);
  await consentPages(app, deps);
  await accountPages(app, deps);
  await dataRequestPages(app, deps);
  await livePages(app, deps);
  await auditPages(app, deps);
  await teamPages(app, deps, 'pages');
}
