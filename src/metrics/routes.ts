// Where Prometheus reads the metrics: GET /metrics on the app with INTAKE_METRICS_TOKEN (a bearer
// token; absent, the route does not exist), and/or a server of its own on 127.0.0.1 with
// INTAKE_METRICS_PORT (loopback only, so no token: whoever can reach it is on this machine). Neither
// is in the API reference. The submission hooks count every answer of the two submission endpoints,
// refusals by their error code, whichever part of the app refused them (rate limit, validation, CAPTCHA).
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from '../accounts/secrets.ts';
import type { Config } from '../config.ts';
import { storageOutage } from '../db/outage.ts';
import { knownError } from '../http/error-replies.ts';
import { AppError } from '../http/errors.ts';
import type { Metrics } from './metrics.ts';

/** The routes whose POSTs are submissions, by the endpoint label they get. */
const SUBMIT_ROUTES: Record<string, 'json' | 'html'> = { '/api/:segment/f/:slug': 'json', '/f/:segment/:slug': 'html' };

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares in constant time (both sides hashed to one length first). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  return timingSafeEqual(digest(bearerToken(header) ?? ''), digest(token));
}

function refusalCode(error: FastifyError | AppError, maxBodyBytes: number): string {
  if (error instanceof AppError) return error.code;
  const known = knownError(error, maxBodyBytes);
  if (known) return known.code;
  return storageOutage(error) ? 'service_unavailable' : 'internal_error';
}

export function useMetrics(app: FastifyInstance, config: Config, metrics: Metrics): void {
  if (!metrics.enabled) return;
  const refusals = new WeakMap<FastifyRequest, string>();
  app.addHook('onError', async (request, _reply, error) => {
    const outage = storageOutage(error);
    if (outage) metrics.databaseOutage(outage);
    refusals.set(request, refusalCode(error, config.maxBodyBytes));
  });
  app.addHook('onResponse', async (request, reply) => {
    const endpoint = request.method === 'POST' ? SUBMIT_ROUTES[request.routeOptions.url ?? ''] : undefined;
    if (!endpoint) return;
    const refused = reply.statusCode >= 400;
    const reason = refused ? refusals.get(request) ?? `http_${reply.statusCode}` : null;
    metrics.submission(endpoint, refused ? 'refused' : 'accepted', reason, reply.elapsedTime / 1000);
  });

  const token = config.metrics.token;
  if (token === null) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, token)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').type('text/plain; charset=utf-8').send('Unauthorized');
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** INTAKE_METRICS_PORT: GET /metrics on 127.0.0.1 only; null when the port is not set. */
export async function startMetricsServer(config: Config, metrics: Metrics): Promise<MetricsServer | null> {
  if (config.metrics.port === null) return null;
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics could not be read'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metrics.port ?? 0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
