// API-key authentication for the management API and MCP: a hook that names the owner on the
// request, refuses writes to a read-scoped key, and stamps the credit headers every authenticated
// response carries.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Owner } from '../accounts/service.ts';
import { bearerToken } from '../accounts/secrets.ts';
import { fail } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    owner: Owner | null;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a REST request changes something; MCP decides per tool instead. */
export function isWrite(request: FastifyRequest): boolean {
  return !READ_METHODS.has(request.method);
}

/** Sets the credit headers from the account's current figures. */
export async function stampCredits(accounts: AccountService, owner: Owner, reply: FastifyReply): Promise<void> {
  const credits = await accounts.credits(owner.account);
  reply.header('X-Service-Credits-Remaining', String(credits.remaining));
  reply.header('X-Service-Metered', String(credits.metered));
}

/** The owner of the request's key, or null; sets request.owner. */
export async function authenticateKey(accounts: AccountService, request: FastifyRequest): Promise<Owner | null> {
  const token = bearerToken(request.headers.authorization);
  request.owner = token ? await accounts.authenticate(token) : null;
  return request.owner;
}

/** `scopeBy: 'method'` (REST): a read key may only read. MCP passes 'tool' and checks each call. */
export function requireApiKey(accounts: AccountService, scopeBy: 'method' | 'tool' = 'method') {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const owner = await authenticateKey(accounts, request);
    if (!owner) throw fail.unauthorized('Missing or invalid API key. Send Authorization: Bearer <API_KEY>.');
    await stampCredits(accounts, owner, reply);
    if (scopeBy === 'method' && owner.scope === 'read' && isWrite(request)) throw fail.insufficientScope();
  };
}

/** The authenticated owner; only callable behind requireApiKey. */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw fail.unauthorized('Missing or invalid API key.');
  return request.owner;
}
