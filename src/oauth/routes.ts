// Mounts the authorization server (a Koa application inside oidc-provider) in this Fastify app:
// its endpoints under /oauth/ and its metadata at /.well-known/oauth-authorization-server (RFC
// 8414) and /.well-known/openid-configuration. Fastify only routes: the request goes to the
// provider unread (it parses bodies itself), and the provider writes the response. Before an
// authorization request reaches it, its browser session is bound to the dashboard's log-in
// (service.bindBrowserSession).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { baseUrlOf } from '../http/base-url.ts';
import { byClientIp } from '../http/rate-limit.ts';
import type { OauthService } from './service.ts';

const METHODS = ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT'] as const;

/** /oauth/authorize and its resume, /oauth/authorize/<uid>. */
const AUTHORIZATION = /^\/oauth\/authorize(?:\/|\?|$)/;

/** Registrations count per address on a budget of their own (bodyKeyedLimit); other requests give null, uncounted there. */
export const registrationAddress = (request: FastifyRequest): string | null =>
  request.method === 'POST' && request.url.split('?')[0] === '/oauth/register' ? byClientIp(request) : null;

export interface OauthRouteOptions {
  config: Config;
  oauth: OauthService;
  /** The account logged in to the dashboard in the requesting browser, or null. */
  dashboardAccount: (request: FastifyRequest) => Promise<string | null>;
}

export const oauthRoutes: FastifyPluginAsync<OauthRouteOptions> = async (app, { config, oauth, dashboardAccount }) => {
  // Bodies are left in the stream for the provider, which reads and limits them itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  async function handOver(request: FastifyRequest, reply: FastifyReply, url?: string): Promise<void> {
    const origin = baseUrlOf(request, config.publicUrl);
    const provider = await oauth.providers.for(origin);
    if (AUTHORIZATION.test(request.url)) await oauth.bindBrowserSession(origin, request.raw, reply.raw, await dashboardAccount(request));
    reply.hijack();
    if (url) request.raw.url = url;
    await provider.callback()(request.raw, reply.raw);
  }

  for (const url of ['/oauth/*', '/.well-known/openid-configuration']) {
    app.route({ method: [...METHODS], url, schema: { hide: true }, handler: (request, reply) => handOver(request, reply) });
  }
  // RFC 8414's well-known path for an issuer without a path: the same document as OpenID discovery.
  app.route({
    method: ['GET', 'OPTIONS'], url: '/.well-known/oauth-authorization-server', schema: { hide: true },
    handler: (request, reply) => handOver(request, reply, '/.well-known/openid-configuration'),
  });
};
