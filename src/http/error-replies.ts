// The one place that turns errors into response bodies. The spec gives each endpoint family its
// own error format; a route plugin picks its family with errorHandlerFor().
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, fail, outageError } from './errors.ts';
import { toFieldErrors } from './route-validation.ts';
import { documentErrors, validationStatus } from './error-docs.ts';

export type Family = 'public' | 'forms' | 'submissions' | 'account' | 'knowledge';

/** The AppError a Fastify error stands for (a validation failure, a body too large …); null for the unknown. */
export function knownError(error: FastifyError, maxBodyBytes: number): AppError | null {
  if (error.validation) {
    const rootType = error.validation.some((v) => v.instancePath === '' && v.keyword === 'type');
    if (error.validationContext === 'body' && rootType) return fail.invalidBody('The request body must be a JSON object.');
    const details = toFieldErrors(error.validation as Parameters<typeof toFieldErrors>[0]);
    if (error.validationContext === 'body') return fail.validation(details);
    const summary = Object.entries(details)
      .map(([field, messages]) => `${field} ${messages.join(', ')}`)
      .join('; ');
    return fail.invalidParameters(`Invalid parameters: ${summary}`, details);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return fail.payloadTooLarge(maxBodyBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return fail.unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return fail.invalidBody('The request body is empty; send a JSON object.');
  }
  if (error.statusCode === 429) return null; // rate limiter errors are AppErrors already
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('invalid_body', error.statusCode, error.message);
  }
  return null;
}

function publicBody(error: AppError) {
  return { error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}), ...error.extra } };
}

function send(reply: FastifyReply, family: Family, error: AppError): FastifyReply {
  // A 503 says when to come back, in the header every HTTP client knows as well as in the body.
  if (error.status === 503 && typeof error.extra.retry_after === 'number') reply.header('retry-after', String(error.extra.retry_after));
  // No family of the spec has a 403; every one answers a read key's write, and a quarantined file, the same way.
  if (error.code === 'insufficient_scope' || error.code === 'insufficient_role' || error.code === 'file_quarantined') return reply.code(403).send(publicBody(error));
  if (family === 'forms') {
    if (error.code === 'unauthorized') return reply.code(401).type('text/plain; charset=utf-8').send('Unauthorized');
    if (error.status === 404) return reply.code(404).send({ errors: error.message });
    if (error.code === 'validation_error') return reply.code(422).send({ errors: error.details ?? {} });
    if (error.status < 500 && error.status !== 429) {
      return reply.code(error.status).send({ errors: error.details ?? { body: [error.message] } });
    }
  }
  if (family === 'submissions' && error.code !== 'unauthorized' && error.code !== 'rate_limited') {
    const status = error.code === 'validation_error' ? validationStatus(family) : error.status;
    return reply.code(status).send({ error: { code: status, message: error.message, ...(error.details ? { details: error.details } : {}) } });
  }
  const status = error.code === 'validation_error' ? validationStatus(family) : error.status;
  return reply.code(status).send(publicBody(error));
}

let lastOutageLog = 0;
let outagesSinceLog = 0;

/** An outage fails every request at once: the log says so once a second, with how many it refused. */
export function logOutage(request: FastifyRequest, error: unknown): void {
  outagesSinceLog++;
  const now = Date.now();
  if (now - lastOutageLog < 1_000) return;
  request.log.warn({ err: error, refused: outagesSinceLog }, 'database unavailable: answering 503');
  lastOutageLog = now;
  outagesSinceLog = 0;
}

/**
 * A page for a browser instead of the family's body (src/html-forms); null: the body. Pages take the
 * status of the error as it is (a validation error is 400), never a 2xx.
 */
export type ErrorPage = (request: FastifyRequest, error: AppError) => string | null;

function sendPageOr(reply: FastifyReply, request: FastifyRequest, family: Family, error: AppError, page: ErrorPage | undefined): FastifyReply {
  const html = page?.(request, error);
  if (html === null || html === undefined) return send(reply, family, error);
  if ((error.status === 429 || error.status === 503) && typeof error.extra.retry_after === 'number') reply.header('retry-after', String(error.extra.retry_after));
  const status = error.code === 'insufficient_scope' ? 403 : error.status;
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

export function errorHandlerFor(family: Family, maxBodyBytes: number, page?: ErrorPage) {
  return function handleError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
    const known = error instanceof AppError ? error : knownError(error, maxBodyBytes);
    if (known && known.status < 500) return sendPageOr(reply, request, family, known, page);
    const outage = known ? null : outageError(error);
    if (outage) {
      logOutage(request, error);
      return sendPageOr(reply, request, family, outage, page);
    }
    // Anything unexpected is logged in full and answered without internals.
    request.log.error({ err: error }, 'request failed');
    return sendPageOr(reply, request, family, known ?? fail.internal(), page);
  };
}

/** A route plugin's error family: its error handler, and the same errors documented on each of its routes. */
export function useErrorFamily(app: FastifyInstance, family: Family, maxBodyBytes: number, page?: ErrorPage): void {
  app.setErrorHandler(errorHandlerFor(family, maxBodyBytes, page));
  documentErrors(app, family);
}
