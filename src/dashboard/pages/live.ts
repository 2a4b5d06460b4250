// The dashboard's live stream: one server-sent event stream per page, for the logged-in owner
// (and one form, on a form's pages), fed by the live bus (src/live): new submissions, verdicts
// and delivery results, as counts per form. Pages refresh what they show through their usual
// routes; a stream carries no submission data.
import sseModule, { type SSEPluginOptions } from '@fastify/sse';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { LiveEvent } from '../../live/events.ts';
import type { DashboardDeps } from '../deps.ts';
import { sessionOf } from '../page-context.ts';
import { SESSION_COOKIE } from '../session-cookies.ts';

/**
 * Streams one session may hold in this process. A browser opens at most six HTTP/1.1 connections
 * to a host: a few tabs stream, the rest poll, and pages still load.
 */
export const MAX_STREAMS_PER_SESSION = 4;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;
/** How often a stream checks that its session still exists (log-out, password change). */
const SESSION_CHECK_MS = 60_000;
/** A client that reads nothing while this much waits is dropped rather than buffered for. */
const MAX_BUFFERED_BYTES = 64 * 1024;

// Node hands an ES module the CommonJS exports as its default: the plugin wrapped by fastify-plugin,
// which is what must be registered (its types name the unwrapped function instead).
const sse = sseModule as unknown as FastifyPluginAsync<SSEPluginOptions>;

type LiveRequest = FastifyRequest<{ Querystring: { form?: string } }>;

export async function livePages(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { services } = deps;
  const perSession = new Map<string, number>();
  const open = new Set<() => void>();

  // Open streams would hold the server's close for ever: they end first, and each page reconnects
  // to another process (or polls) on its own.
  app.addHook('preClose', async () => {
    for (const close of [...open]) close();
  });

  await app.register(async (zone) => {
    await zone.register(sse, { heartbeatInterval: HEARTBEAT_MS });

    zone.get('/live', { sse: 'only' }, async (request: LiveRequest, reply) => {
      const session = sessionOf(request);
      const wanted = typeof request.query.form === 'string' && request.query.form !== '' ? request.query.form : null;
      const formId = wanted === null ? null : (await services.forms.get(session.account.id, wanted)).id;
      const held = perSession.get(session.tokenHash) ?? 0;
      if (held >= MAX_STREAMS_PER_SESSION) {
        return reply.code(429).header('retry-after', '30').type('text/plain; charset=utf-8').send('Too many live pages open: this one refreshes by polling.');
      }
      perSession.set(session.tokenHash, held + 1);
      reply.sse.keepAlive();

      let closed = false;
      const forward = (event: LiveEvent | 'resync') => {
        if (closed) return;
        if (reply.raw.writableLength > MAX_BUFFERED_BYTES) return close();
        if (event !== 'resync' && formId !== null && event.form !== formId) return;
        const message = event === 'resync' ? { event: 'resync', data: {} } : { event: event.type, data: { form: event.form, count: event.count } };
        reply.sse.send(message).catch(close);
      };
      const token = request.cookies[SESSION_COOKIE] ?? '';
      const check = setInterval(() => {
        services.dashboard.session(token).then((still) => still || close(), () => {});
      }, SESSION_CHECK_MS);
      check.unref();
      let unsubscribe = () => {};
      function close() {
        if (closed) return;
        closed = true;
        clearInterval(check);
        unsubscribe();
        open.delete(close);
        const left = (perSession.get(session.tokenHash) ?? 1) - 1;
        if (left > 0) perSession.set(session.tokenHash, left);
        else perSession.delete(session.tokenHash);
        reply.sse.close();
      }
      open.add(close);
      reply.sse.onClose(close);
      try {
        unsubscribe = await services.live.subscribe(session.account.id, forward);
      } catch (error) {
        close();
        throw error;
      }
      if (closed) return unsubscribe();
      // The first message commits the response, so the page knows at once that the stream is up.
      await reply.sse.send({ event: 'ready', data: { form: formId }, retry: 3_000 });
    });
  });
}

/** Streams open in this process, for tests: none may outlive its page. */
export function openStreams(deps: DashboardDeps): number {
  return deps.services.live.listeners();
}
