// API-key authentication for the management API: hooks that name the owner on the request and
// stamp the credit headers that every authenticated response carries, errors included.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Owner } from '../accounts/service.ts';
import { bearerToken } from '../accounts/secrets.ts';
import { fail } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    owner: Owner | null;
  }
}

/**
 * Authenticates every route of the plugin `app` before its body is read or validated, so a
 * validation error (or any other) is answered to a known owner and carries the credit headers.
 */
export function requireApiKey(app: FastifyInstance, accounts: AccountService): void {
  async function stampCredits(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const owner = request.owner;
    if (!owner || reply.hasHeader('X-Service-Credits-Remaining')) return;
    const credits = await accounts.credits(owner.account);
    reply.header('X-Service-Credits-Remaining', String(credits.remaining));
    reply.header('X-Service-Metered', String(credits.metered));
  }

  app.addHook('onRequest', async (request, reply) => {
    const token = bearerToken(request.headers.authorization);
    const owner = token ? await accounts.authenticate(token) : null;
    if (!owner) throw fail.unauthorized('Missing or invalid API key. Send Authorization: Bearer <API_KEY>.');
    request.owner = owner;
    await stampCredits(request, reply);
  });

  // A request refused before the hook above ran (the rate limiter answers first) still came with
  // a key: when it is valid, its answer carries the headers too.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.owner && reply.statusCode !== 401) {
      const token = bearerToken(request.headers.authorization);
      request.owner = token ? await accounts.authenticate(token) : null;
    }
    await stampCredits(request, reply);
    return payload;
  });
}

/** The authenticated owner; only callable behind requireApiKey. */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw fail.unauthorized('Missing or invalid API key.');
  return request.owner;
}
