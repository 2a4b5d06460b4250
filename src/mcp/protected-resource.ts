// OAuth 2.0 Protected Resource Metadata (RFC 9728) for /mcp, which the 401 challenge points to:
// it tells an MCP client what the resource is and that it takes a bearer token in the header.
// It names this server itself as the authorization server (src/oauth): a client discovers it here,
// registers and signs the owner in with OAuth. API keys (Integrations page, `intake keys create`)
// keep working as bearer tokens beside OAuth's.
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import { baseUrlOf } from '../http/base-url.ts';

/** The well-known path of the resource `<origin>/mcp`, as RFC 9728 section 3.1 builds it. */
export const protectedResourcePath = '/.well-known/oauth-protected-resource/mcp';

export const protectedResourceRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const metadata = (origin: string) => ({
    resource: `${origin}/mcp`,
    authorization_servers: [origin],
    resource_name: 'Intake MCP server',
    bearer_methods_supported: ['header'],
    scopes_supported: ['full', 'read'],
    resource_documentation: `${origin}/docs`,
  });
  for (const url of ['/.well-known/oauth-protected-resource', protectedResourcePath]) {
    app.get(url, { schema: { hide: true } }, async (request) => metadata(baseUrlOf(request, config.publicUrl)));
  }
};
