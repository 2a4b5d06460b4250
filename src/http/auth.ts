// API-key authentication for the management API: a hook that names the owner on the request
// and stamps the credit headers every authenticated response carries.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Owner } from '../accounts/service.ts';
import { bearerToken } from '../accounts/secrets.ts';
import { fail } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    owner: Owner | null;
  }
}

export function requireApiKey(accounts: AccountService) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = bearerToken(request.headers.authorization);
    const owner = token ? await accounts.authenticate(token) : null;
    if (!owner) throw fail.unauthorized('Missing or invalid API key. Send Authorization: Bearer <API_KEY>.');
    request.owner = owner;
    const credits = await accounts.credits(owner.account);
    reply.header('X-Service-Credits-Remaining', String(credits.remaining));
    reply.header('X-Service-Metered', String(credits.metered));
  };
}

/** The authenticated owner; only callable behind requireApiKey. */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw fail.unauthorized('Missing or invalid API key.');
  return request.owner;
}
