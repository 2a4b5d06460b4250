import type { FastifyRequest } from 'fastify';

/** The public origin links are built on: the configured one, else the origin the client reached. */
export function baseUrlOf(request: FastifyRequest, configured: string | null): string {
  return configured ?? `${request.protocol}://${request.host}`;
}
