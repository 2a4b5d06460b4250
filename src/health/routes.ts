// /healthz: the process is alive (always 200) and what it can reach. /readyz: 503 while the
// database does not answer, so a load balancer sends requests to another instance meanwhile.
// Neither is part of the API reference (hide), and neither is rate limited.
import type { FastifyInstance } from 'fastify';
import { retryAfterSeconds } from '../db/outage.ts';
import type { DependencyChecks } from './dependencies.ts';

export async function healthRoutes(app: FastifyInstance, options: { checks: DependencyChecks }): Promise<void> {
  const { checks } = options;

  app.get('/healthz', { schema: { hide: true } }, async () => {
    const { database, redis, malwareScanner } = await checks.check();
    return {
      status: database.up && (redis?.up ?? true) ? 'ok' : 'degraded',
      database: { status: database.up ? 'up' : 'down', ...(database.reason && { reason: database.reason }) },
      redis: redis
        ? { status: redis.up ? 'up' : 'down', ...(redis.fallbackSince && { fallback: 'rate limits and in-flight caps in process memory', since: redis.fallbackSince }) }
        : { status: 'not_configured' },
      // Down: submissions with files are held, not lost; the process itself is fine (so no 'degraded').
      malware_scanner: malwareScanner
        ? { status: malwareScanner.up ? 'up' : 'down', ...(!malwareScanner.up && { effect: 'submissions with files wait: their notifications go out once it answers' }) }
        : { status: 'not_configured' },
    };
  });

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const database = await checks.databaseState();
    if (database.up) return { status: 'ready' };
    const wait = database.reason === 'disk_full' ? retryAfterSeconds('disk_full') : retryAfterSeconds('unreachable');
    return reply.code(503).header('retry-after', String(wait)).send({ status: 'unavailable', database: 'down' });
  });
}
