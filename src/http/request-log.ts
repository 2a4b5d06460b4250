// One log entry per request, written when it is answered, in place of Fastify's two ("incoming
// request", "request completed"). Successful reads of pages and assets (the dashboard, its scripts
// and styles, thank-you pages, /healthz) go to `debug`: a dashboard page pulls several, and at `info`
// they buried the set-up link a new operator needs to read. Writes, API and MCP calls and every error
// stay at `info`.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from './log-redaction.ts';

function isQuietRead(request: FastifyRequest, status: number): boolean {
  if (status >= 400 || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const path = request.url;
  return !(path.startsWith('/api/') || path === '/mcp' || path.startsWith('/mcp/') || path.startsWith('/mcp?'));
}

export class OneLinePerRequest extends Fastify.LogController {
  override incomingRequest(): void {
    // logged once, when answered
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const entry = { req: request, res: { statusCode: status }, responseTime: ms, ...(error && { err: error }) };
    const message = `${request.method} ${redactUrl(request.url)} ${status} ${ms} ms`;
    if (error) reply.log.error(entry, message);
    else if (isQuietRead(request, status)) reply.log.debug(entry, message);
    else reply.log.info(entry, message);
  }
}
