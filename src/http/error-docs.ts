// The errors each route can answer, documented in /openapi.json by the same family rules that shape
// them (error-replies.ts): a client generated from the document expects what the server sends. A
// route's own schema adds only what is particular to it (a 422 cannot_delete, a 502).
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { Family } from './error-replies.ts';

const fieldErrors = Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Field name → messages' });

const publicBody = Type.Object({
  error: Type.Object(
    {
      code: Type.String({ description: 'A stable code such as validation_error, unauthorized, captcha_failed, rate_limited' }),
      message: Type.String(),
      details: Type.Optional(fieldErrors),
      retry_after: Type.Optional(Type.Integer({ description: 'Seconds, on 429 and 503' })),
      upgrade_url: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
});
const submissionsBody = Type.Object({
  error: Type.Object({ code: Type.Integer({ description: 'The HTTP status' }), message: Type.String(), details: Type.Optional(fieldErrors) }),
});
const formsNotFound = Type.Object({ errors: Type.String() });
const formsFields = Type.Object({ errors: fieldErrors });

/** The families' bodies by the name /openapi.json gives them (src/http/openapi-components.ts). */
export const ERROR_BODIES = {
  Error: publicBody,
  SubmissionsError: submissionsBody,
  FormsError: formsFields,
  FormsNotFound: formsNotFound,
};
const plainUnauthorized = { description: 'Missing or invalid API key', content: { 'text/plain': { schema: { type: 'string', example: 'Unauthorized' } } } };

/** The status of a body that fails its schema, by family (the spec's choice for each). */
export function validationStatus(family: Family): 400 | 422 {
  return family === 'public' || family === 'account' ? 400 : 422;
}

function bodyOf(family: Family, status: number): unknown {
  if (status === 403 || status === 429) return publicBody;
  if (status === 401) return family === 'forms' ? plainUnauthorized : publicBody;
  if (family === 'forms') return status === 404 ? formsNotFound : status >= 500 ? publicBody : formsFields;
  if (family === 'submissions') return submissionsBody;
  return publicBody;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every error status the route can answer, from what it declares: auth, parameters, a body. */
function errorStatuses(route: RouteOptions, family: Family): number[] {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  // Any route can meet a storage outage (503, with Retry-After) or an unexpected fault (500).
  const statuses = new Set([429, 500, 503]);
  const methods = [route.method].flat();
  if (schema.security) {
    statuses.add(401);
    if (methods.some((m) => WRITES.has(m))) statuses.add(403);
  }
  if (schema.params) statuses.add(404);
  if (schema.querystring) statuses.add(400);
  if (schema.body) for (const status of [400, 413, 415, validationStatus(family)]) statuses.add(status);
  // A submission to a form with a CAPTCHA and no valid solution: 403 captcha_failed.
  if (family === 'public' && schema.body) statuses.add(403);
  return [...statuses].sort();
}

type ObjectSchema = { properties?: Record<string, { default?: unknown }>; required?: string[] } & Record<string, unknown>;

/**
 * A query parameter with a default may be left out (the validator fills it in), so it is not
 * required: TypeBox marks every non-optional property required, which the document would repeat.
 */
function defaultsOptional(query: ObjectSchema): ObjectSchema {
  const required = (query.required ?? []).filter((name) => query.properties?.[name]?.default === undefined);
  const { required: _dropped, ...rest } = query;
  return required.length > 0 ? { ...rest, required } : rest;
}

/** Adds the family's error responses to every route the plugin registers from here on. */
export function documentErrors(app: FastifyInstance, family: Family): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as ({ hide?: boolean; response?: Record<string, unknown>; querystring?: ObjectSchema } & Record<string, unknown>) | undefined;
    if (!schema || schema.hide) return;
    const response = { ...(schema.response ?? {}) };
    for (const status of errorStatuses(route, family)) response[status] = bodyOf(family, status);
    route.schema = { ...schema, response, ...(schema.querystring && { querystring: defaultsOptional(schema.querystring) }) };
  });
}
