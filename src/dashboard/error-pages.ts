// The dashboard's error pages and the headers every page is sent with; also used by the app's
// not-found handler, outside the dashboard plugin.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from './html.ts';
import { page, sendPage } from './layout.ts';

const CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
  "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'",
].join('; ');

export function errorPage(request: FastifyRequest, title: string, message: string, details?: Record<string, string[]>) {
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

export function setPageHeaders(request: FastifyRequest, reply: FastifyReply): void {
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
