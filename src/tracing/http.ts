// The submit request's span: the root of a submission's trace, on both doors (the JSON endpoint and
// the plain HTML form's). It starts when the request arrives, so body parsing and refusals before the
// handler are in it. It is not made the active span for the handler: the route hands it to the
// submission service (requestSpan), which puts the commit's attributes on it and its context in the
// processing job. Entering it as the active context cost, per request, a context and an
// AsyncLocalStorage frame that every promise of the request then held, for nothing else on the
// submit path reads the active span (docs/performance.md#tracing). A visitor's own traceparent
// header is not followed: the endpoints are public, and a trace begins here. Registered only when
// tracing is on.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ROOT_CONTEXT, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import { AppError } from '../http/errors.ts';
import { SpanKind, startSpan, tracingOn } from './tracer.ts';

/** The routes whose POSTs are submissions: each span's name (the route's template, never the form's address: ids are attributes) and first attributes, made once. */
const SUBMIT_ROUTES: Record<string, { name: string; attributes: Attributes }> = Object.fromEntries(
  ([['/api/:segment/f/:slug', 'json'], ['/f/:segment/:slug', 'html']] as const).map(([route, endpoint]) => [
    route,
    { name: `POST ${route}`, attributes: { 'http.request.method': 'POST', 'http.route': route, 'intake.endpoint': endpoint } },
  ]),
);
const SERVER = { kind: SpanKind.SERVER, parent: ROOT_CONTEXT };

/**
 * Where a request keeps its span: a symbol-keyed property rather than a WeakMap, whose entries (one
 * per request in flight) the garbage collector has to trace as ephemerons at every collection.
 */
const SPAN = Symbol('intake.span');
type Traced = FastifyRequest & { [SPAN]?: Span };

/** What the submission service is handed: the request's span. */
export type RequestSpan = Span;

/** The request's span, for the service that handles it; undefined for requests without one (tracing off, not a submission). */
export const requestSpan = (request: FastifyRequest): RequestSpan | undefined => (request as Traced)[SPAN];

export function useTracing(app: FastifyInstance): void {
  if (!tracingOn()) return;
  const spans = { get: requestSpan, set: (request: FastifyRequest, span: Span) => void ((request as Traced)[SPAN] = span) };
  app.addHook('onRequest', (request, _reply, done) => {
    const submit = request.method === 'POST' ? SUBMIT_ROUTES[request.routeOptions.url ?? ''] : undefined;
    if (submit) {
      const span = startSpan(submit.name, submit.attributes, SERVER);
      if (span) spans.set(request, span);
    }
    done();
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
