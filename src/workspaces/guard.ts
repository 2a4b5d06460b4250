// Where the REST API asks permissions.ts: after the key or token named the principal, before the
// body is read. A route with no entry is refused for every role (and fails the role-matrix test).
import type { FastifyRequest } from 'fastify';
import type { Owner } from '../accounts/service.ts';
import { AppError, fail } from '../http/errors.ts';
import { MINIMUM_ROLE, allows, restAction } from './permissions.ts';

export function checkRestRole(request: FastifyRequest, owner: Owner): void {
  const action = restAction(request.method, request.routeOptions.url);
  if (!action) throw new AppError('insufficient_role', 403, `${request.method} ${request.routeOptions.url} has no entry in the permission table; nobody may call it.`);
  if (!allows(owner.role, action)) throw fail.insufficientRole(owner.role, MINIMUM_ROLE[action]);
}
