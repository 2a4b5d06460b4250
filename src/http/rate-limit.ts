// Rate-limit zones. Every route registered inside a zone shares the zone's counters, so the
// management API's 60 a minute is one budget across forms, submissions and account routes. The
// counters live where the app's backend says (memory, Redis or PostgreSQL); in the shared ones each
// zone counts under its own name, so the same IP or key never mixes two zones' budgets.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountService } from '../accounts/service.ts';
import { authenticateKey, type TokenLookup } from './auth.ts';
import type { RateLimitBackend } from '../limits/rate-limit-stores.ts';
import { fail } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimitBackend: RateLimitBackend;
  }
}

/** Where every zone of `app` keeps its counters; memory when never called. */
export function useRateLimitBackend(app: FastifyInstance, backend: RateLimitBackend): void {
  app.decorate('rateLimitBackend', { getter: () => backend });
}

const PER_IP = 'ip:';
export const byClientIp = (request: FastifyRequest) => `${PER_IP}${request.ip}`;

/**
 * Per API key. Requests without a valid key count against their IP: counted by the token they
 * sent, a caller making up a new token each time would never be limited. The key is looked up
 * here, before the route's own authentication, which reuses the answer.
 */
export const byApiKey = (accounts: AccountService, other?: TokenLookup) => async (request: FastifyRequest) => {
  const owner = await authenticateKey(accounts, request, other);
  return owner ? `key:${owner.keyId}` : byClientIp(request);
};

function storeOptions(backend: RateLimitBackend, name: string) {
  switch (backend.kind) {
    case 'redis':
      return { store: backend.store(`${backend.prefix}rl:${name}:`) };
    case 'postgres':
      return { store: backend.store(`${name}:`) };
    case 'memory':
      return {};
  }
}

export async function rateLimitZone(
  zone: FastifyInstance,
  options: {
    name: string; perMinute: number; key: (request: FastifyRequest) => string | Promise<string>;
    /**
     * Which requests of a key count, decided once the body is parsed (MCP: tool calls only, not the
     * messages that open a session). Absent: every request. Requests the key does not tie to a key
     * (counted per IP: no valid key) always count, before anything else runs.
     */
    counted?: (request: FastifyRequest) => boolean;
  },
): Promise<void> {
  const backend: RateLimitBackend = zone.hasDecorator('rateLimitBackend') ? zone.rateLimitBackend : { kind: 'memory' };
  await zone.register(rateLimit, {
    // Not added to each route (global), where it would run after the routes' own authentication
    // hooks, whose 401s were then never counted: a zone-wide hook runs first.
    global: false,
    max: options.perMinute,
    timeWindow: 60_000,
    keyGenerator: options.key,
    ...storeOptions(backend, options.name),
    // A shared store that cannot be reached lets requests through rather than failing them (Redis's
    // store counts in memory instead, behind its breaker).
    skipOnError: true,
    // The spec: no rate-limit headers on successful responses; a 429 says when to come back.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    errorResponseBuilder: (_request, context) => fail.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  const limit = zone.rateLimit();
  const { counted } = options;
  if (!counted) {
    zone.addHook('onRequest', limit);
    return;
  }
  const perIp = async (request: FastifyRequest) => (await options.key(request)).startsWith(PER_IP);
  zone.addHook('onRequest', async function countUnknown(request, reply) {
    if (await perIp(request)) await limit.call(this, request, reply);
  });
  zone.addHook('preHandler', async function countPicked(request, reply) {
    if (counted(request) && !(await perIp(request))) await limit.call(this, request, reply);
  });
}

/**
 * A second budget inside a zone, counted by what `key` picks from the request: an account's email
 * in the parsed body on log-in (attempts spread over many addresses still meet a limit), the
 * address of an OAuth registration. Runs before the route's handler; requests for which `key`
 * gives null are not counted.
 */
export function bodyKeyedLimit(
  zone: FastifyInstance,
  options: { name: string; perWindow: number; windowMs: number; key: (request: FastifyRequest) => string | null },
): void {
  const check = zone.createRateLimit({
    max: options.perWindow,
    timeWindow: options.windowMs,
    keyGenerator: (request: FastifyRequest) => `${options.name}:${options.key(request) ?? ''}`,
  });
  zone.addHook('preHandler', async (request, reply) => {
    if (options.key(request) === null) return;
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    const seconds = Math.max(1, result.ttlInSeconds);
    reply.header('retry-after', String(seconds));
    throw fail.rateLimited(seconds);
  });
}
