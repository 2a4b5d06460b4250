// API-key authentication for the management API and MCP: hooks that name the owner on the
// request, refuse writes to a read-scoped key, and stamp the credit headers that every
// authenticated response carries, errors included.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Owner } from '../accounts/service.ts';
import { bearerToken } from '../accounts/secrets.ts';
import { fail } from './errors.ts';
import { checkRestRole } from '../workspaces/guard.ts';

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

/** Requests whose key has been looked up: the rate limiter does it first, the route's hook reuses it. */
const authenticated = new WeakSet<FastifyRequest>();

/** Another kind of bearer token a route takes beside API keys (/mcp: OAuth access tokens). */
export type TokenLookup = (token: string, request: FastifyRequest) => Promise<Owner | null>;

/**
 * The owner of the request's key (or of a token `other` knows), or null; sets request.owner. The
 * credential is looked up once per request.
 */
export async function authenticateKey(accounts: AccountService, request: FastifyRequest, other?: TokenLookup): Promise<Owner | null> {
  if (authenticated.has(request)) return request.owner;
  const token = bearerToken(request.headers.authorization);
  request.owner = token ? ((await accounts.authenticate(token)) ?? (other ? await other(token, request) : null)) : null;
  authenticated.add(request);
  return request.owner;
}

/**
 * Authenticates every route of the plugin `app` before its body is read or validated, so that a
 * validation error (or any other) is answered to a known owner and carries the credit headers.
 * A read-scoped key may only read.
 */
export function requireApiKey(app: FastifyInstance, accounts: AccountService): void {
  app.addHook('onRequest', async (request, reply) => {
    const owner = await authenticateKey(accounts, request);
    if (!owner) throw fail.unauthorized('Missing or invalid API key. Send Authorization: Bearer <API_KEY>.');
    await stampCredits(accounts, owner, reply);
    if (owner.scope === 'read' && isWrite(request)) throw fail.insufficientScope();
    checkRestRole(request, owner);
  });

  // A request refused before the hook above ran (the rate limiter answers first) still came with
  // a key: when it is valid, its answer carries the headers too.
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.hasHeader('X-Service-Credits-Remaining') || reply.statusCode === 401) return payload;
    const owner = request.owner ?? (await authenticateKey(accounts, request));
    if (owner) await stampCredits(accounts, owner, reply);
    return payload;
  });
}

/** The authenticated owner; only callable behind requireApiKey. */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw fail.unauthorized('Missing or invalid API key.');
  return request.owner;
}
