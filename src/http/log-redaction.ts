// What the request log may show. A URL can carry a one-time secret (`/set-password?token=…`,
// `/setup?token=…`, an OAuth `code`), and whoever reads the log could use it first: such query values
// are replaced before a line is written. Credentials in headers (Authorization, cookies) never reach
// the log either, whatever a future serializer adds.
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

export const REDACTED = '[redacted]';

// Matched against a query parameter's name: anything that may grant access.
const SECRET_NAME = /token|key|secret|password|passwd|code|signature|sig$|session|auth|ticket|state/i;

function isSecretName(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replaceAll('+', ' '));
  } catch {
    // a malformed escape: judged as sent
  }
  return SECRET_NAME.test(name);
}

/** The URL with the value of every secret-looking query parameter replaced. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isSecretName(name) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, mark)}?${query.join('&')}`;
}

/**
 * Fastify's logger options: the level, the request serializer with redacted URLs, and pino's
 * redaction of headers. `pretty` (a terminal on stdout) writes lines for people through
 * pino-pretty; otherwise JSON lines, for log collectors, as always.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, pretty = false) {
  return {
    level: config.logLevel,
    ...(pretty && { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', singleLine: true, ignore: 'pid,hostname,reqId,req,res,responseTime' } } }),
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["idempotency-key"]', 'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie'],
      censor: REDACTED,
    },
  };
}
