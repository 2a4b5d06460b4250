// GET /api/audit, and the hook that records every write made through the REST API.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountService } from '../accounts/service.ts';
import type { Config } from '../config.ts';
import { isWrite, ownerOf, requireApiKey } from '../http/auth.ts';
import { useErrorFamily } from '../http/error-replies.ts';
import { AuditPageOutput, AuditQuery } from './schemas.ts';
import type { AuditService } from './service.ts';

export const auditRoutes: FastifyPluginAsyncTypebox<{ config: Config; accounts: AccountService; audit: AuditService }> = async (
  app,
  { config, accounts, audit },
) => {
  useErrorFamily(app, 'account', config.maxBodyBytes);
  requireApiKey(app, accounts);
  app.get('/api/audit', {
    schema: {
      tags: ['Account'], security: [{ apiKey: [] }], summary: 'The audit log: every write made with your keys, newest first',
      description: 'Writes through the REST API (surface api) and through MCP tools (surface mcp), including those that failed.',
      querystring: AuditQuery, response: { 200: AuditPageOutput },
    },
  }, async (request) => audit.list(ownerOf(request).account.id, request.query.page, request.query.page_size));
};

/** The id a REST write acted on: the route's last parameter, or the id of what it created. */
function targetOf(request: FastifyRequest, payload: unknown): string | null {
  const route = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, string>;
  const names = [...route.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const lastName = names.at(-1);
  const last = lastName ? (params[lastName] ?? null) : null;
  if (lastName && route.endsWith(`:${lastName}`)) return last;
  if (typeof payload === 'string' && payload.startsWith('{')) {
    try {
      const id = (JSON.parse(payload) as { id?: unknown }).id;
      if (typeof id === 'string') return id;
    } catch {
      // not JSON after all: no id to take
    }
  }
  return last;
}

/**
 * Records every write by an authenticated key in this zone, whatever route made it and however it
 * ended, before the response leaves: the one place the REST API's writes are audited.
 */
export function auditRestWrites(zone: FastifyInstance, audit: AuditService): void {
  zone.addHook('onSend', async (request, reply, payload) => {
    const owner = request.owner;
    if (!owner || !isWrite(request)) return payload;
    try {
      await audit.record({
        owner,
        surface: 'api',
        operation: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
        targetId: targetOf(request, payload),
        outcome: reply.statusCode < 400 ? 'succeeded' : 'failed',
        ...(request.auditDetail !== undefined && { detail: request.auditDetail }),
      });
    } catch (error) {
      // The write itself has happened; losing its audit row is logged loudly rather than turned into an error.
      request.log.error({ err: error }, 'could not record an audit entry');
    }
    return payload;
  });
}
