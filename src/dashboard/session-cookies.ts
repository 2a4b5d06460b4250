// The dashboard's cookies: the session, and the double-submit token of the forms shown before log-in.
import { randomBytes } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { SESSION_DAYS, type DashboardService } from './service.ts';

export const SESSION_COOKIE = 'intake_session';
/** Double-submit token for the forms shown before there is a session (log in, set-up). */
export const PRE_COOKIE = 'intake_pre';

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

/** The account logged in to the dashboard by a request's cookies, for routes outside its plugin (the OAuth provider's). */
export async function dashboardAccountOf(dashboard: DashboardService, cookieHeader: string | undefined): Promise<string | null> {
  const token = cookieHeader ? fastifyCookie.parse(cookieHeader)[SESSION_COOKIE] : undefined;
  return token ? ((await dashboard.session(token))?.account.id ?? null) : null;
}
