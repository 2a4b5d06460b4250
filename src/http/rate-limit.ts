// Rate-limit zones. Every route registered inside a zone shares the zone's counters, so the
// management API's 60 a minute is one budget across forms, submissions and account routes.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken, hashSecret } from '../accounts/secrets.ts';
import { fail } from './errors.ts';

export const byClientIp = (request: FastifyRequest) => `ip:${request.ip}`;

/** Per API key; requests without one count against their IP. */
export const byApiKey = (request: FastifyRequest) => {
  const token = bearerToken(request.headers.authorization);
  return token ? `key:${hashSecret(token)}` : byClientIp(request);
};

export async function rateLimitZone(
  zone: FastifyInstance,
  options: { perMinute: number; key: (request: FastifyRequest) => string },
): Promise<void> {
  await zone.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    keyGenerator: options.key,
    // The spec: no rate-limit headers on successful responses; a 429 says when to come back.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    errorResponseBuilder: (_request, context) => fail.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
