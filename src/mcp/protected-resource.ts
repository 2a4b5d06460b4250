// OAuth 2.0 Protected Resource Metadata (RFC 9728) for /mcp, which the 401 challenge points to:
// it tells an MCP client what the resource is and that it takes a bearer token in the header.
// No authorization server is named yet: src/oauth's is not mounted until its consent page exists
// (issue 23). API keys (Integrations page, `intake keys create`) are the bearer tokens until then.
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import { baseUrlOf } from '../http/base-url.ts';

/** The well-known path of the resource `<origin>/mcp`, as RFC 9728 section 3.1 builds it. */
export const protectedResourcePath = '/.well-known/oauth-protected-resource/mcp';

export const protectedResourceRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const metadata = (origin: string) => ({
    resource: `${origin}/mcp`,
    resource_name: 'Intake MCP server',
    bearer_methods_supported: ['header'],
    scopes_supported: ['full', 'read'],
    resource_documentation: `${origin}/docs`,
  });
  for (const url of ['/.well-known/oauth-protected-resource', protectedResourcePath]) {
    app.get(url, { schema: { hide: true } }, async (request) => metadata(baseUrlOf(request, config.publicUrl)));
  }
};
