// Mounts the authorization server (a Koa application inside oidc-provider) in this Fastify app:
// its endpoints under /oauth/ and its metadata at /.well-known/oauth-authorization-server (RFC
// 8414) and /.well-known/openid-configuration. Fastify only routes: the request goes to the
// provider unread (it parses bodies itself), and the provider writes the response.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { baseUrlOf } from '../http/base-url.ts';
import type { OauthService } from './service.ts';

const METHODS = ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT'] as const;

export const oauthRoutes: FastifyPluginAsync<{ config: Config; oauth: OauthService }> = async (app, { config, oauth }) => {
  // Bodies are left in the stream for the provider, which reads and limits them itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  async function handOver(request: FastifyRequest, reply: FastifyReply, url?: string): Promise<void> {
    const provider = await oauth.providers.for(baseUrlOf(request, config.publicUrl));
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
