// The submit request's span: the root of a submission's trace, on both doors (the JSON endpoint and
// the plain HTML form's). It starts when the request arrives, so body parsing and refusals before the
// handler are in it, and becomes the active span for the handler (the service's commit span, the
// processing job's parent). A visitor's own traceparent header is not followed: the endpoints are
// public, and a trace begins here. Registered only when tracing is on.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { AppError } from '../http/errors.ts';
import { inSpan, SpanKind, startSpan, tracingOn } from './tracer.ts';

/** The routes whose POSTs are submissions, by the endpoint they are. */
const SUBMIT_ROUTES: Record<string, 'json' | 'html'> = { '/api/:segment/f/:slug': 'json', '/f/:segment/:slug': 'html' };

/**
 * Where a request keeps its span: a symbol-keyed property rather than a WeakMap, whose entries (one
 * per request in flight) the garbage collector has to trace as ephemerons at every collection.
 */
const SPAN = Symbol('intake.span');
type Traced = FastifyRequest & { [SPAN]?: Span };

export function useTracing(app: FastifyInstance): void {
  if (!tracingOn()) return;
  const spans = { get: (request: FastifyRequest) => (request as Traced)[SPAN], set: (request: FastifyRequest, span: Span) => void ((request as Traced)[SPAN] = span) };
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? '';
    const endpoint = request.method === 'POST' ? SUBMIT_ROUTES[route] : undefined;
    if (endpoint) {
      // Named by the route's template, never by the form's address (ids are attributes).
      const span = startSpan(`POST ${route}`, { 'http.request.method': 'POST', 'http.route': route, 'intake.endpoint': endpoint }, { kind: SpanKind.SERVER });
      if (span) spans.set(request, span);
    }
    done();
  });
  // The body is parsed by then; the handler (and everything it awaits) runs with the request's span active.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (span) inSpan(span, done);
    else done();
  });
  // Callback hooks, not async ones: no promise per request.
  app.addHook('onError', (request, _reply, error: FastifyError | AppError, done) => {
    spans.get(request)?.setAttribute('error.type', error instanceof AppError ? error.code : (error.code || error.name));
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      // A refusal (4xx) is the visitor's; only the server's own failures mark the span as an error.
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
